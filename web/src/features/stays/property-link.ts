import type { StaySearchProperty } from '../../../../shared/upstream/stays.ts';
import { destinationParams, encodeRooms, type StaySearch } from './stay-search-params.ts';

/** The property page of a search result: the ids of the search-stream path plus the search itself. */
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
  });
  return `/stays/properties/${encodeURIComponent(property.propertyId)}?${params.toString()}`;
}
