import type { StayPropertyDestination } from '#shared/api/destinations.ts';
import type { StaySearchProperty } from '#shared/api/stays.ts';
import { destinationParams, encodeRooms, type StaySearch } from '../search/stay-search-params.ts';

/**
 * The hotel's own destination as URL parameters (its name is `hotel`), apart from the search's
 * destination: enough to price it on the direct-property path, so its stay can be shared.
 */
function hotelDestinationParams(destination: StayPropertyDestination): Record<string, string> {
  return {
    hotelId: destination.propertyId,
    hotelCity: destination.city,
    hotelCountry: destination.countryCode,
    hotelLat: String(destination.latitude),
    hotelLng: String(destination.longitude),
  };
}

/**
 * The property page of a search result: the ids of the search-stream path plus the search itself, and
 * the hotel's destination when the search stream sends it.
 */
export function propertyPagePath(property: StaySearchProperty, search: StaySearch): string {
  const params = new URLSearchParams({
    ...destinationParams(search.destination),
    checkIn: search.checkIn,
    checkOut: search.checkOut,
    rooms: encodeRooms(search.rooms),
    purpose: search.bookingProfile ? 'personal' : 'business',
    solution: property.searchSolutionId,
    solutionKey: property.solutionKey,
    hotel: property.name,
    ...(property.destination ? hotelDestinationParams(property.destination) : {}),
  });
  return `/stays/properties/${encodeURIComponent(property.propertyId)}?${params.toString()}`;
}
