import {
  MAX_ADULTS_PER_ROOM,
  MAX_CHILD_AGE,
  MAX_CHILDREN_PER_ROOM,
  MAX_ROOMS,
} from '#shared/api/stay-values.ts';
import type { StayRoom } from '#shared/api/stays.ts';
import type { StayDestination } from '#shared/api/destinations.ts';

/** A stay search as the form edits it and the URL holds it. */
export interface StaySearchForm {
  destination: StayDestination | null;
  checkIn: string;
  checkOut: string;
  rooms: StayRoom[];
  /** true is personal travel, false business (the spec's bookingProfile). */
  bookingProfile: boolean;
}

/** A stay search ready to send: every field present and valid. */
export type StaySearch = StaySearchForm & { destination: StayDestination };

/** "2:5.7,1" is two rooms: two adults with children aged 5 and 7, and one adult. */
export function encodeRooms(rooms: readonly StayRoom[]): string {
  return rooms
    .map((room) =>
      room.childrenAges.length ? `${room.adults}:${room.childrenAges.join('.')}` : `${room.adults}`,
    )
    .join(',');
}

export function decodeRooms(text: string | null): StayRoom[] | undefined {
  if (!text) return undefined;
  const rooms: StayRoom[] = [];
  for (const part of text.split(',').slice(0, MAX_ROOMS)) {
    const [adultsText, agesText] = part.split(':');
    const adults = Number(adultsText);
    if (!Number.isInteger(adults) || adults < 1 || adults > MAX_ADULTS_PER_ROOM) return undefined;
    const childrenAges = agesText ? agesText.split('.').map(Number) : [];
    if (
      childrenAges.length > MAX_CHILDREN_PER_ROOM ||
      childrenAges.some((age) => !Number.isInteger(age) || age < 0 || age > MAX_CHILD_AGE)
    ) {
      return undefined;
    }
    rooms.push({ adults, childrenAges });
  }
  return rooms.length ? rooms : undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isoDateOr(value: string | null, fallback: string): string {
  return value && ISO_DATE.test(value) ? value : fallback;
}

function number(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** The destination as URL parameters: readable, and enough to send it again. */
export function destinationParams(destination: StayDestination): Record<string, string> {
  const common = {
    name: destination.name,
    country: destination.countryCode,
    lat: String(destination.latitude),
    lng: String(destination.longitude),
  };
  return destination.type === 'city'
    ? { city: destination.cityId, ...common }
    : { property: destination.propertyId, propertyCity: destination.city, ...common };
}

export function destinationFromParams(params: URLSearchParams): StayDestination | null {
  const name = params.get('name');
  const countryCode = params.get('country');
  const latitude = number(params.get('lat'));
  const longitude = number(params.get('lng'));
  if (!name || !countryCode || latitude === undefined || longitude === undefined) return null;
  const cityId = params.get('city');
  if (cityId) return { type: 'city', cityId, name, countryCode, latitude, longitude };
  const propertyId = params.get('property');
  const city = params.get('propertyCity');
  if (propertyId && city)
    return { type: 'property', propertyId, name, city, countryCode, latitude, longitude };
  return null;
}

export function staySearchToParams(search: StaySearch): URLSearchParams {
  return new URLSearchParams({
    ...destinationParams(search.destination),
    checkIn: search.checkIn,
    checkOut: search.checkOut,
    rooms: encodeRooms(search.rooms),
    purpose: search.bookingProfile ? 'personal' : 'business',
  });
}

export interface StaySearchDefaults {
  checkIn: string;
  checkOut: string;
  bookingProfile: boolean;
}

/** The form as the URL describes it, filling what is missing with the defaults. */
export function staySearchFormFromParams(
  params: URLSearchParams,
  defaults: StaySearchDefaults,
): StaySearchForm {
  const purpose = params.get('purpose');
  return {
    destination: destinationFromParams(params),
    checkIn: isoDateOr(params.get('checkIn'), defaults.checkIn),
    checkOut: isoDateOr(params.get('checkOut'), defaults.checkOut),
    rooms: decodeRooms(params.get('rooms')) ?? [{ adults: 2, childrenAges: [] }],
    bookingProfile: purpose === 'personal' ? true : purpose === 'business' ? false : defaults.bookingProfile,
  };
}
