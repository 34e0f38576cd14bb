/** Sample stay data for tests and benchmarks that script the travel API's stay streams. */

/** A well-formed UUID numbered `n`, so a test can tell its samples apart at a glance. */
export const sampleUuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Lisbon as a city destination of a stay search. */
export const LISBON_DESTINATION = {
  type: 'city',
  cityId: 'LIS',
  name: 'Lisbon',
  countryCode: 'PT',
  latitude: 38.72,
  longitude: -9.14,
} as const;

/** The `property` event data of a stay search for hotel `n`, whose propertyId is `sampleUuid(100 + n)`. */
export function sampleStayProperty(n: number, searchId: string) {
  return {
    searchId,
    searchSolutionId: sampleUuid(n),
    propertyId: sampleUuid(100 + n),
    solutionKey: String(n % 10).repeat(64),
    name: `Hotel ${n}`,
    stars: 4,
    address: `${n} Rua Augusta`,
    city: 'Lisbon',
    countryCode: 'PT',
    latitude: 38.71,
    longitude: -9.13,
    distanceKm: n / 10,
    reviewScore: 8.2,
    reviewCount: 310,
    amenities: ['wifi'],
    thumbnail: { palette: ['#223344'], monogram: 'H' },
    priceFrom: { nightlyPrice: 90, currency: 'EUR' },
  };
}
