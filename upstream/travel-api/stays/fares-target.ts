import type { FastifyInstance } from 'fastify';
import type { ErrorDetail } from '#shared/upstream/error-envelope.ts';
import { sameRooms, type StayFaresRequest } from '#shared/upstream/stays.ts';
import { ServiceError } from '../service-error.ts';
import type { StayProperty } from './hotel-inventory.ts';
import type { StaySearchTerms } from './stay-search-store.ts';

export interface FaresTarget {
  property: StayProperty;
  searchSolutionId: string | null;
  solutionKey: string | null;
}

/**
 * The hotel a fares call prices. Search-stream path: the live solution of a search whose dates, rooms and
 * profile the call repeats (410 when the search is gone, 422 when the terms differ). Direct path: the
 * hotel behind the autocomplete id (404 when there is none).
 */
export function faresTarget(
  app: FastifyInstance,
  fares: StayFaresRequest,
  terms: StaySearchTerms,
  now: Date,
  travelerId: string | undefined,
): FaresTarget {
  const expired = () =>
    new ServiceError('OFFER_EXPIRED', {
      message: 'The search has expired or is unknown; search again for current prices',
    });
  if (fares.searchSolutionId !== undefined && fares.propertyId !== undefined) {
    const found = app.faults.for(travelerId).offersExpired
      ? undefined
      : app.staySearches.findSolution(fares.searchSolutionId, fares.propertyId, now);
    if (!found) throw expired();
    const mismatches = differencesFromSearch(terms, found.search);
    if (mismatches.length > 0) {
      throw new ServiceError('VALIDATION_ERROR', {
        message: 'The dates, rooms and bookingProfile must equal those of the stay search',
        details: mismatches,
      });
    }
    const property = app.hotels.byPropertyId(found.solution.propertyId, found.solution.cityId);
    if (!property) throw expired();
    return {
      property,
      searchSolutionId: found.solution.searchSolutionId,
      solutionKey: fares.solutionKey ?? found.solution.solutionKey,
    };
  }
  const property = fares.property ? app.hotels.byRawId(fares.property.propertyId) : undefined;
  if (!property) {
    throw new ServiceError('RESOURCE_NOT_FOUND', {
      message: 'No property has this autocomplete id',
      recoveryAction: 'CHANGE_SELECTION',
    });
  }
  return { property, searchSolutionId: null, solutionKey: fares.solutionKey ?? null };
}

function differencesFromSearch(terms: StaySearchTerms, search: StaySearchTerms): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const mismatch = (field: string) =>
    details.push({
      field,
      code: 'equals_search',
      message: `${field} must equal the value sent to the stay search`,
    });
  if (terms.checkIn !== search.checkIn) mismatch('checkIn');
  if (terms.checkOut !== search.checkOut) mismatch('checkOut');
  if (!sameRooms(terms.rooms, search.rooms)) mismatch('rooms');
  if (terms.bookingProfile !== search.bookingProfile) mismatch('bookingProfile');
  return details;
}
