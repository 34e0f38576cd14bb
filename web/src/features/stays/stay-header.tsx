import type { StayRoom } from '#shared/api/stays.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { nightsBetween } from '../../lib/intl-format.ts';
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

export function roomsSummary(rooms: readonly StayRoom[]): string {
  const adults = rooms.reduce((sum, room) => sum + room.adults, 0);
  const children = rooms.reduce((sum, room) => sum + room.childrenAges.length, 0);
  const parts = [
    `${rooms.length} ${rooms.length === 1 ? 'room' : 'rooms'}`,
    `${adults} ${adults === 1 ? 'adult' : 'adults'}`,
  ];
  if (children > 0) parts.push(`${children} ${children === 1 ? 'child' : 'children'}`);
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
  const nights = checkIn && checkOut ? nightsBetween(checkIn, checkOut) : 0;
  return (
    <header className="property-header">
      <PropertyThumbnail seed={seed} monogram={name.slice(0, 1)} />
      <div className="stack-sm">
        <h1>{name}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
        {checkIn && checkOut && (
          <p className="muted">
            {format.calendarDate(checkIn, 'long')} – {format.calendarDate(checkOut, 'long')} · {nights}{' '}
            {nights === 1 ? 'night' : 'nights'} · {roomsSummary(rooms)} ·{' '}
            {bookingProfile ? 'Personal' : 'Business'} trip
          </p>
        )}
      </div>
    </header>
  );
}
