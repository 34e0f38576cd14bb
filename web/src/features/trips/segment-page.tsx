import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { SegmentDetails, SegmentPlace } from '../../../../shared/upstream/trips.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { dayOffset, type Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTravelerFormatters } from '../profile/use-traveler-formatters.ts';
import { tripQueries } from './trip-queries.ts';
import './trips.css';

const STATUS_TONES: Record<string, string> = {
  SCHEDULED: 'chip-info',
  DELAYED: 'chip-warning',
  CANCELLED: 'chip-danger',
  DEPARTED: 'chip-success',
  ARRIVED: 'chip-success',
  COMPLETED: '',
};

const STATUS_LABELS: Record<string, string> = {
  SCHEDULED: 'On time',
  DELAYED: 'Delayed',
  CANCELLED: 'Cancelled',
  DEPARTED: 'Departed',
  ARRIVED: 'Arrived',
  COMPLETED: 'Completed',
};

export function SegmentPage() {
  const { tripId = '', segmentId = '' } = useParams();
  const segment = useQuery(tripQueries.segment(tripId, segmentId));
  const format = useTravelerFormatters();
  useDocumentTitle(segment.data?.title ?? 'Trip segment');

  return (
    <div className="page stack">
      <p>
        <Link to="/bookings">← All bookings</Link>
      </p>
      {segment.isPending ? (
        <div aria-busy="true" className="stack">
          <h1>Trip segment</h1>
          <div className="card stack-sm">
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-block" />
          </div>
        </div>
      ) : segment.isError ? (
        <>
          <h1>Trip segment</h1>
          <ErrorNotice error={segment.error} onRetry={() => void segment.refetch()} />
        </>
      ) : (
        <SegmentView segment={segment.data} format={format} refreshing={segment.isFetching} />
      )}
    </div>
  );
}

function SegmentView({
  segment,
  format,
  refreshing,
}: {
  segment: SegmentDetails;
  format: Formatters;
  refreshing: boolean;
}) {
  const status = segment.status;
  const delayed = segment.delayMinutes > 0 && status !== 'CANCELLED';
  return (
    <>
      <header className="segment-header">
        <p className="small muted">
          {segment.trip.title} · {format.calendarDate(segment.trip.startDate)} –{' '}
          {format.calendarDate(segment.trip.endDate)}
        </p>
        <h1>{segment.title}</h1>
        <div className="row" aria-live="polite">
          <span className={['chip', STATUS_TONES[status] ?? 'chip-info'].join(' ')}>
            {STATUS_LABELS[status] ?? status.toLowerCase()}
          </span>
          {delayed && <span className="warning-text">{format.duration(segment.delayMinutes)} late</span>}
          <span className="small muted">
            Updated {format.relative(segment.updatedAt)}
            {refreshing ? ' · checking…' : ''}
          </span>
        </div>
      </header>

      <section className="card segment-times" aria-label="Schedule">
        <TimeBlock
          label="Departure"
          place={segment.origin}
          scheduled={segment.scheduledDeparture}
          estimated={segment.estimatedDeparture}
          cancelled={status === 'CANCELLED'}
          format={format}
        />
        <span className="segment-arrow" aria-hidden="true">
          →
        </span>
        <TimeBlock
          label="Arrival"
          place={segment.destination}
          scheduled={segment.scheduledArrival}
          estimated={segment.estimatedArrival}
          cancelled={status === 'CANCELLED'}
          format={format}
          dayShift={dayOffset(
            segment.estimatedDeparture,
            segment.origin.timeZone,
            segment.estimatedArrival,
            segment.destination.timeZone,
          )}
        />
      </section>

      <section className="card" aria-labelledby="segment-details-title">
        <h2 id="segment-details-title">Details</h2>
        <dl className="definition-list">
          {segment.carrier && (
            <>
              <dt>Operated by</dt>
              <dd>
                {segment.carrier.name}
                {segment.serviceNumber ? ` · ${segment.serviceNumber}` : ''}
              </dd>
            </>
          )}
          <dt>Terminal</dt>
          <dd>{segment.terminal ?? 'Not announced yet'}</dd>
          <dt>Gate</dt>
          <dd>{segment.gate ?? 'Not announced yet'}</dd>
          <dt>Seat</dt>
          <dd>{segment.seat ?? 'Not assigned'}</dd>
          <dt>Booking reference</dt>
          <dd className="mono">{segment.bookingReference}</dd>
        </dl>
      </section>
    </>
  );
}

function TimeBlock({
  label,
  place,
  scheduled,
  estimated,
  cancelled,
  format,
  dayShift = 0,
}: {
  label: string;
  place: SegmentPlace;
  scheduled: string;
  estimated: string;
  cancelled: boolean;
  format: Formatters;
  dayShift?: number;
}) {
  const changed = estimated !== scheduled && !cancelled;
  const scheduledTime = format.time(scheduled, place.timeZone);
  const estimatedTime = format.time(estimated, place.timeZone);
  return (
    <div className="time-block">
      <span className="small muted">{label}</span>
      <p className="segment-time">
        {changed ? (
          <>
            <del className="struck">
              <span className="visually-hidden">Scheduled </span>
              {scheduledTime}
            </del>{' '}
            <ins className="new-time">
              <span className="visually-hidden">, now </span>
              {estimatedTime}
            </ins>
          </>
        ) : cancelled ? (
          <del className="struck">{scheduledTime}</del>
        ) : (
          scheduledTime
        )}
        {dayShift > 0 && <sup className="day-offset">+{dayShift}</sup>}
      </p>
      <p className="small">
        <strong>{place.code ?? place.name}</strong> {place.code ? place.name : ''} · {place.city}
      </p>
      <p className="small muted">{format.calendarDate(estimated.slice(0, 10), 'long')} · local time</p>
    </div>
  );
}
