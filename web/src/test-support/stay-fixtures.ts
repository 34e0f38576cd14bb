import type { StayDestination } from '#shared/api/destinations.ts';

/** A UUID numbered `n`, so a test's ids read as what they stand for. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The solution key every stay search's hotel carries in these tests. */
export const SOLUTION_KEY = 'a'.repeat(64);

/** Paris, as the stay autocomplete names it. */
export const PARIS: StayDestination = {
  type: 'city',
  cityId: 'paris-fr',
  name: 'Paris',
  countryCode: 'FR',
  latitude: 48.85,
  longitude: 2.35,
};

/** Hotel `n` of a Paris stay search (search `uuid(99)`), as the stay search stream sends it. */
export function stayProperty(n: number, name: string) {
  return {
    searchId: uuid(99),
    searchSolutionId: uuid(n),
    propertyId: uuid(100 + n),
    solutionKey: SOLUTION_KEY,
    name,
    stars: 4,
    address: `${n} rue du Garden`,
    city: 'Paris',
    countryCode: 'FR',
    latitude: 48.85,
    longitude: 2.35,
    distanceKm: 1.2,
    reviewScore: 8.4,
    reviewCount: 1200,
    amenities: ['gym'],
    thumbnail: { palette: ['#123456'], monogram: name.slice(0, 2) },
    priceFrom: null,
  };
}
