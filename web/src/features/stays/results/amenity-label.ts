import type { MessageId } from '../../../i18n/i18n.ts';
import type { Translate } from '../../../i18n/use-t.ts';

const AMENITIES: Record<string, MessageId> = {
  wifi: 'stays.amenity.wifi',
  breakfast: 'stays.amenity.breakfast',
  gym: 'stays.amenity.gym',
  spa: 'stays.amenity.spa',
  pool: 'stays.amenity.pool',
  parking: 'stays.amenity.parking',
  airport_shuttle: 'stays.amenity.airport_shuttle',
  restaurant: 'stays.amenity.restaurant',
  bar: 'stays.amenity.bar',
  meeting_rooms: 'stays.amenity.meeting_rooms',
  pet_friendly: 'stays.amenity.pet_friendly',
  air_conditioning: 'stays.amenity.air_conditioning',
  laundry: 'stays.amenity.laundry',
  ev_charging: 'stays.amenity.ev_charging',
};

/** The traveler's words for a hotel amenity code (pool, airport_shuttle); an unknown code reads as itself. */
export function amenityLabel(amenity: string, t: Translate): string {
  const known = AMENITIES[amenity];
  return known ? t(known) : amenity.replaceAll('_', ' ');
}
