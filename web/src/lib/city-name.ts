import type { Booking } from '#shared/api/bookings.ts';
import type { SegmentPlace, TripOverview } from '#shared/api/trips.ts';
import { i18n } from '../i18n/i18n.ts';

/** The city of a trip's place in the interface's language ("Londres"), when the travel API names it so. */
export function placeCity(place: Pick<SegmentPlace, 'city' | 'cityNames'>): string {
  return place.cityNames?.[i18n.locale] ?? place.city;
}

/** A booking's cities in the interface's language: its route's (a flight or train), else its own city's. */
export function bookingCities(booking: Pick<Booking, 'location' | 'route'>): {
  city: string;
  route: string[] | undefined;
} {
  return { city: placeCity(booking.location), route: booking.route?.map(placeCity) };
}

/** The cities a trip visits, each in the interface's language when the travel API names it so. */
export function tripCities(trip: Pick<TripOverview, 'cities' | 'cityNames'>): string[] {
  return trip.cities.map((city, index) => trip.cityNames?.[index]?.[i18n.locale] ?? city);
}
