import { StayPropertyDestinationSchema, type StayPropertyDestination } from '#shared/api/destinations.ts';

/**
 * The hotel's direct-property destination from its page's URL; undefined when absent or invalid. Apart
 * from property-link.ts, which every hotel card of the results uses: reading a link checks it with zod,
 * which only the hotel's own page loads.
 */
export function hotelDestinationFromParams(params: URLSearchParams): StayPropertyDestination | undefined {
  const coordinate = (value: string | null) => (value === null || value.trim() === '' ? NaN : Number(value));
  const parsed = StayPropertyDestinationSchema.safeParse({
    type: 'property',
    propertyId: params.get('hotelId'),
    name: params.get('hotel'),
    city: params.get('hotelCity'),
    countryCode: params.get('hotelCountry'),
    latitude: coordinate(params.get('hotelLat')),
    longitude: coordinate(params.get('hotelLng')),
  });
  return parsed.success ? parsed.data : undefined;
}
