import { Link } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { todayIsoDate, type Formatters } from '../../lib/intl-format.ts';
import { notificationQueries } from '../notifications/notification-queries.ts';
import { useTravelerFormatters } from '../profile/use-traveler-formatters.ts';
import { connectionRisks } from './connection-risks.ts';
import { nextSegment, nextTrip } from './next-trip.ts';
import { segmentKind, statusLabel, STATUS_TONES } from './segment-kinds.ts';
import { tripQueries } from './trip-queries.ts';
import { TripStatusChip } from './trip-status-chip.tsx';
import { WallTime } from './trip-timeline.tsx';
import './trips.css';

/** Home's first word: the trip going on now or the next one, its live state and its unread alerts. */
export function NextTripPanel() {
  const trips = useQuery(tripQueries.list());
  const format = useTravelerFormatters();
  const trip = trips.data ? nextTrip(trips.data.items, todayIsoDate()) : undefined;

  if (trips.isPending) {
    return (
      <section className="card next-trip" aria-busy="true" aria-label="Your next trip">
        <span className="skeleton skeleton-line" />
        <span className="skeleton skeleton-block" />
      </section>
    );
  }
  if (trips.isError) return null;
  if (!trip) {
    return (
      <section className="card next-trip" aria-labelledby="next-trip-title">
        <h2 id="next-trip-title">No trips ahead</h2>
        <p className="muted">Search a flight or a stay to start your next one.</p>
      </section>
    );
  }
  return <NextTripCard tripId={trip.tripId} format={format} />;
}

function NextTripCard({ tripId, format }: { tripId: string; format: Formatters }) {
  const trip = useQuery(tripQueries.trip(tripId));
  const inbox = useInfiniteQuery(notificationQueries.inbox());
  const unread = (inbox.data?.pages ?? [])
    .flatMap((page) => page.items)
    .filter((item) => item.tripId === tripId && item.readAt === null);
  if (!trip.data) {
    return (
      <section className="card next-trip" aria-busy="true" aria-label="Your next trip">
        <span className="skeleton skeleton-line" />
      </section>
    );
  }
  const details = trip.data;
  const started = details.startDate <= todayIsoDate();
  const segment = nextSegment(details.segments);
  const risks = connectionRisks(details.segments);
  return (
    <section className="card next-trip stack-sm" aria-labelledby="next-trip-title">
      <p className="small muted">{started ? 'Your trip now' : 'Your next trip'}</p>
      <h2 id="next-trip-title">
        <Link to={`/trips/${encodeURIComponent(details.tripId)}`}>{details.title}</Link>
      </h2>
      <p className="row">
        <span>
          {format.calendarDate(details.startDate, 'long')} – {format.calendarDate(details.endDate, 'long')}
        </span>
        <span className="muted">{details.cities.join(' · ')}</span>
        <TripStatusChip trip={details} />
      </p>
      {segment && (
        <p className="next-segment">
          <span className="small muted">Next: {segmentKind(segment.kind).label} · </span>
          <strong>{segment.title}</strong>{' '}
          <span className={['chip', STATUS_TONES[segment.status] ?? 'chip-info'].join(' ')}>
            {statusLabel(segment)}
            {segment.delayMinutes > 0 && segment.status !== 'CANCELLED'
              ? ` · ${format.duration(segment.delayMinutes)} late`
              : ''}
          </span>
          <br />
          <span className="small">
            {segmentKind(segment.kind).start}{' '}
            {format.calendarDate(segment.estimatedDeparture.slice(0, 10))}{' '}
          </span>
          <WallTime
            scheduled={segment.scheduledDeparture}
            estimated={segment.estimatedDeparture}
            place={segment.origin}
            cancelled={segment.status === 'CANCELLED'}
            format={format}
          />
        </p>
      )}
      {risks.size > 0 && (
        <p className="risk-note" role="note">
          <strong>At risk:</strong> {risks.size === 1 ? 'one booking' : `${risks.size} bookings`} on this
          trip. <Link to={`/trips/${encodeURIComponent(details.tripId)}`}>See what changed</Link>
        </p>
      )}
      {unread.length > 0 && (
        <p>
          <Link to="/inbox">
            {unread.length === 1 ? '1 unread alert' : `${unread.length} unread alerts`} about this trip
          </Link>
        </p>
      )}
    </section>
  );
}
