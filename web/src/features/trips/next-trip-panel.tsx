import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/use-t.ts';
import { localDateOf, todayIsoDate, type Formatters } from '../../lib/intl-format.ts';
import { notificationQueries } from '../notifications/notification-queries.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { connectionRisks, replaceableLegs } from './connection-risks.ts';
import { nextSegment, nextTrip } from './next-trip.ts';
import { OtherFlightsPanel } from './rebooking/other-flights-panel.tsx';
import { RebookingStatus } from './rebooking/rebooking-status.tsx';
import { segmentKind, statusLabel, STATUS_TONES } from './segment-kinds.ts';
import { tripQueries } from './trip-queries.ts';
import { TripStatusChip } from './trip-status-chip.tsx';
import { WallTime } from './trip-timeline.tsx';
import { segmentName } from '../../lib/segment-name.ts';
import { tripName } from '../../lib/trip-name.ts';
import { tripCities } from '../../lib/city-name.ts';
import { TextInLanguage } from '../../components/text-in-language.tsx';
import './trips.css';

export interface NextTripPanelProps {
  /**
   * What stands in while the trip loads: the page's skeleton of the loaded card, the one it also shows
   * while this panel's code loads, so the page below does not move when the trip arrives.
   */
  skeleton?: ReactNode;
}

/** Home's first word: the trip going on now or the next one, its live state and its unread alerts. */
export function NextTripPanel({ skeleton = null }: NextTripPanelProps) {
  const trips = useQuery(tripQueries.list());
  const format = useTravelerFormatters();
  const t = useT();
  const trip = trips.data ? nextTrip(trips.data.items, todayIsoDate()) : undefined;

  if (trips.isPending) return skeleton;
  if (trips.isError) return null;
  if (!trip) {
    return (
      <section className="card next-trip" aria-labelledby="next-trip-title">
        <h2 id="next-trip-title">{t('nextTrip.none')}</h2>
        <p className="muted">{t('nextTrip.noneHint')}</p>
      </section>
    );
  }
  return <NextTripCard tripId={trip.tripId} format={format} skeleton={skeleton} />;
}

function NextTripCard({
  tripId,
  format,
  skeleton,
}: {
  tripId: string;
  format: Formatters;
  skeleton: ReactNode;
}) {
  const t = useT();
  const trip = useQuery(tripQueries.trip(tripId));
  const inbox = useInfiniteQuery(notificationQueries.inbox());
  const unread = (inbox.data?.pages ?? [])
    .flatMap((page) => page.items)
    .filter((item) => item.tripId === tripId && item.readAt === null);
  // The card is drawn whole, with its unread alerts, rather than growing under the traveler's eyes; but
  // only the inbox's first answer is waited for, never its retries or a wait for the network to return.
  const inboxArriving = inbox.isPending && inbox.fetchStatus === 'fetching' && inbox.failureCount === 0;
  if (!trip.data || inboxArriving) return skeleton;
  const details = trip.data;
  const started = details.startDate <= todayIsoDate();
  const segment = nextSegment(details.segments);
  const risks = connectionRisks(details.segments);
  return (
    <section className="card next-trip stack-sm" aria-labelledby="next-trip-title">
      <p className="small muted">{started ? t('nextTrip.now') : t('nextTrip.label')}</p>
      <h2 id="next-trip-title">
        <Link to={`/trips/${encodeURIComponent(details.tripId)}`}>
          <TextInLanguage value={tripName(details, t)} />
        </Link>
      </h2>
      <p className="row">
        <span>{format.calendarRange(details.startDate, details.endDate, 'long')}</span>
        <span className="muted">{tripCities(details).join(' · ')}</span>
        <TripStatusChip trip={details} />
      </p>
      {segment && (
        <p className="next-segment">
          <span className="small muted">
            {t('nextTrip.next', { kind: t(segmentKind(segment.kind).label) })}{' '}
          </span>
          <strong>
            <TextInLanguage value={segmentName(segment, t)} />
          </strong>{' '}
          <span className={['chip', STATUS_TONES[segment.status] ?? 'chip-info'].join(' ')}>
            {statusLabel(segment, t)}
            {segment.delayMinutes > 0 && segment.status !== 'CANCELLED'
              ? ` · ${t('segment.late', { duration: format.duration(segment.delayMinutes) })}`
              : ''}
          </span>
          <br />
          <span className="small">
            {t(segmentKind(segment.kind).start)} {/* A time moved to another day names both days itself. */}
            {localDateOf(segment.scheduledDeparture, segment.origin.timeZone) ===
            localDateOf(segment.estimatedDeparture, segment.origin.timeZone)
              ? `${format.calendarDate(segment.scheduledDeparture.slice(0, 10))} `
              : ''}
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
          <strong>{t('segment.atRisk')}</strong> {t('nextTrip.atRisk', { count: risks.size })}{' '}
          <Link to={`/trips/${encodeURIComponent(details.tripId)}`}>{t('nextTrip.seeWhatChanged')}</Link>
        </p>
      )}
      {[...replaceableLegs(risks).values()].map((leg) => (
        <OtherFlightsPanel
          key={leg.segmentId}
          tripId={details.tripId}
          leg={leg}
          segments={details.segments}
          format={format}
        />
      ))}
      <RebookingStatus tripId={details.tripId} format={format} />
      {unread.length > 0 && (
        <p>
          <Link to="/inbox">{t('nextTrip.unread', { count: unread.length })}</Link>
        </p>
      )}
    </section>
  );
}
