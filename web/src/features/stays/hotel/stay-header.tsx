import type { StayRoom } from '#shared/api/stays.ts';
import { useT, type Translate } from '../../../i18n/use-t.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { nightsBetween } from '../../../lib/intl-format.ts';
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
}: StayHeaderProps) {
  const t = useT();
  const nights = checkIn && checkOut ? nightsBetween(checkIn, checkOut) : 0;
  return (
    <header className="property-header">
      <PropertyThumbnail seed={seed} monogram={name.slice(0, 1)} />
      <div className="stack-sm">
        <h1>{name}</h1>
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
