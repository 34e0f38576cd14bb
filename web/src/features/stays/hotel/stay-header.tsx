import type { StayPropertyDetails, StayRoom } from '#shared/api/stays.ts';
import { useT, type Translate } from '../../../i18n/use-t.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { nightsBetween } from '../../../lib/intl-format.ts';
import { PropertyFacts } from './property-facts.tsx';
import { PropertyThumbnail } from './property-thumbnail.tsx';

export interface StayHeaderProps {
  name: string;
  seed: string;
  subtitle?: string;
  checkIn: string;
  checkOut: string;
  rooms: StayRoom[];
  bookingProfile: boolean;
  format: Formatters;
  /** The hotel itself, once known: its picture, stars, address, guest score and amenities. */
  property?: StayPropertyDetails | undefined;
}

/** "2 rooms · 3 adults · 1 child": the rooms and guests of a stay. */
export function roomsSummary(rooms: readonly StayRoom[], t: Translate): string {
  const adults = rooms.reduce((sum, room) => sum + room.adults, 0);
  const children = rooms.reduce((sum, room) => sum + room.childrenAges.length, 0);
  const parts = [
    t('stays.occupancy.rooms', { count: rooms.length }),
    t('stays.occupancy.adults', { count: adults }),
  ];
  if (children > 0) parts.push(t('stays.occupancy.children', { count: children }));
  return parts.join(' · ');
}

/** The hotel's name with the stay it is priced for. */
export function StayHeader({
  name,
  seed,
  subtitle,
  checkIn,
  checkOut,
  rooms,
  bookingProfile,
  format,
  property,
}: StayHeaderProps) {
  const t = useT();
  const nights = checkIn && checkOut ? nightsBetween(checkIn, checkOut) : 0;
  return (
    <header className={property?.image ? 'property-header property-header-photo' : 'property-header'}>
      <PropertyThumbnail
        seed={seed}
        monogram={property?.thumbnail.monogram ?? name.slice(0, 1)}
        image={property?.image}
        alt={t('stays.photo', { hotel: name })}
      />
      <div className="stack-sm">
        <h1>{name}</h1>
        {property && <PropertyFacts property={property} format={format} />}
        {subtitle && <p className="muted">{subtitle}</p>}
        {checkIn && checkOut && (
          <p className="muted">
            {format.calendarDate(checkIn, 'long')} – {format.calendarDate(checkOut, 'long')} ·{' '}
            {t('stays.nights', { count: nights })} · {roomsSummary(rooms, t)} ·{' '}
            {t('stays.header.trip', { purpose: bookingProfile ? 'personal' : 'business' })}
          </p>
        )}
      </div>
    </header>
  );
}
