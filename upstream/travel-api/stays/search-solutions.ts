import { createHash } from 'node:crypto';
import { nightsBetween, type StayRoom, type StaySearchProperty } from '#shared/upstream/stays.ts';
import { ServiceError } from '../service-error.ts';
import type { HotelInventory, StayProperty } from './hotel-inventory.ts';
import { quoteFares } from './quote-fares.ts';
import type { StaySearchTerms } from './stay-search-store.ts';

/** The date that is today somewhere on Earth first ends last at UTC-12: earlier dates are past everywhere. */
export function earliestTodayOnEarth(now: Date): string {
  return new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);
}

export function propertiesFor(
  hotels: HotelInventory,
  destination: { type: 'city'; cityId: string } | { type: 'property'; propertyId: string },
): StayProperty[] {
  if (destination.type === 'city') {
    const properties = hotels.propertiesIn(destination.cityId);
    if (properties.length > 0) return properties;
    throw unknownDestination('destination.cityId', 'No city has this id');
  }
  const property = hotels.byRawId(destination.propertyId);
  if (property) return [property];
  throw unknownDestination('destination.propertyId', 'No property has this autocomplete id');
}

function unknownDestination(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', {
    message: 'The request failed validation',
    details: [{ field, code: 'unknown_destination', message }],
  });
}

/** SHA-256 over the solution and the terms it was found for: the lineage key of later fares. */
export function solutionKeyOf(searchSolutionId: string, propertyId: string, terms: StaySearchTerms): string {
  const rooms = terms.rooms.map((room: StayRoom) => [
    room.adults,
    [...room.childrenAges].sort((a, b) => a - b),
  ]);
  return createHash('sha256')
    .update(
      JSON.stringify([
        searchSolutionId,
        propertyId,
        terms.checkIn,
        terms.checkOut,
        rooms,
        terms.bookingProfile,
      ]),
    )
    .digest('hex');
}

/** The cheapest nightly price, or null when sold out or too long a stay to price. */
export function priceFrom(
  seed: string,
  property: StayProperty,
  terms: StaySearchTerms,
  now: Date,
  maxNights: number,
  currency?: string,
): StaySearchProperty['priceFrom'] {
  if (nightsBetween(terms.checkIn, terms.checkOut) > maxNights) return null;
  const [cheapest] = quoteFares({ seed, property, ...terms, now, currency });
  if (!cheapest) return null;
  const { propertyPrice } = cheapest;
  return {
    nightlyPrice: cheapest.nightlyPrice,
    currency: cheapest.currency,
    ...(propertyPrice && {
      propertyPrice: { nightlyPrice: propertyPrice.nightlyPrice, currency: propertyPrice.currency },
    }),
  };
}

export function propertySummary(property: StayProperty) {
  return {
    name: property.name,
    stars: property.stars,
    address: property.address,
    city: property.city,
    countryCode: property.countryCode,
    latitude: property.latitude,
    longitude: property.longitude,
    distanceKm: property.distanceKm,
    reviewScore: property.reviewScore,
    reviewCount: property.reviewCount,
    amenities: property.amenities,
    thumbnail: { palette: property.palette, monogram: property.monogram },
    image: property.image,
  };
}
