import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { SegmentDetails, SegmentPlace } from '#shared/api/trips.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useT } from '../../i18n/use-t.ts';
import { LastUpdated } from '../../components/last-updated.tsx';
import { dayOffset, type Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useShownOnPage } from '../../lib/shown-on-page.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { connectionRisks } from './connection-risks.ts';
import { describeRisk } from './describe-risk.ts';
import { isTransport, segmentKind, statusLabel, STATUS_TONES, zoneName } from './segment-kinds.ts';
import { tripQueries } from './trip-queries.ts';
import { ChangedTime, SegmentFacts, TripTimeline } from './trip-timeline.tsx';
import { SegmentKindIcon } from './segment-kind-icon.tsx';
import { segmentName } from '../../lib/segment-name.ts';
import { tripName } from '../../lib/trip-name.ts';
import { TRAVEL_API_LANGUAGE } from '../../lib/travel-api-language.ts';
import { TextInLanguage, type LanguageText } from '../../components/text-in-language.tsx';
import './trips.css';

/**
 * The trip page at one segment (where notifications lead): the segment with its live status on top, then
 * the trip's whole timeline with what the segment's state puts at risk further down.
 */
export function SegmentPage() {
  const { tripId = '', segmentId = '' } = useParams();
  const segment = useQuery(tripQueries.segment(tripId, segmentId));
  const trip = useQuery(tripQueries.trip(tripId));
  const format = useTravelerFormatters();
  const t = useT();
  useDocumentTitle(segment.data ? segmentName(segment.data, t).text : t('segment.title'));
  // The segment and the trip's timeline under it follow the trip's news live, as the trip page does.
  useShownOnPage({ kind: 'trip', tripId });
  const risk = trip.data ? connectionRisks(trip.data.segments).get(segmentId) : undefined;

  return (
    <div className="page stack">
      <p>
        <Link to={`/trips/${encodeURIComponent(tripId)}`}>
          {trip.data
            ? t('segment.wholeTripNamed', { title: tripName(trip.data, t).text })
            : t('segment.wholeTrip')}
        </Link>
      </p>
      {segment.isPending ? (
        <div aria-busy="true" className="stack">
          <h1>{t('segment.title')}</h1>
          <div className="card stack-sm">
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-block" />
          </div>
        </div>
      ) : segment.isError ? (
        <>
          <h1>{t('segment.title')}</h1>
          <ErrorNotice error={segment.error} onRetry={() => void segment.refetch()} />
        </>
      ) : (
        <>
          <SegmentView
            segment={segment.data}
            tripTitle={
              trip.data
                ? tripName(trip.data, t)
                : { text: segment.data.trip.title, lang: TRAVEL_API_LANGUAGE }
            }
            format={format}
            refreshing={segment.isFetching}
          />
          <LastUpdated queryKey={tripQueries.segment(tripId, segmentId).queryKey} format={format} />
          {risk && (
            <p className="risk-note" role="note">
              <strong>{t('segment.atRisk')}</strong> {describeRisk(risk, format, t)}
            </p>
          )}
          {trip.data && (
            <section className="stack-sm" aria-labelledby="whole-trip-title">
              <h2 id="whole-trip-title">{t('segment.wholeTripHeading')}</h2>
              <TripTimeline
                tripId={tripId}
                segments={trip.data.segments}
                format={format}
                focusSegmentId={segmentId}
              />
            </section>
          )}
        </>
      )}
    </div>
  );
}

function SegmentView({
  segment,
  tripTitle,
  format,
  refreshing,
}: {
  segment: SegmentDetails;
  /** The trip's name, in the interface's language once the trip has loaded. */
  tripTitle: LanguageText;
  format: Formatters;
  refreshing: boolean;
}) {
  const t = useT();
  const status = segment.status;
  const delayed = segment.delayMinutes > 0 && status !== 'CANCELLED';
  const kind = segmentKind(segment.kind);
  const transport = isTransport(segment);
  return (
    <>
      <header className="segment-header">
        <p className="small muted">
          <SegmentKindIcon kind={segment.kind} />
          {t(kind.label)} · <TextInLanguage value={tripTitle} /> ·{' '}
          {format.calendarRange(segment.trip.startDate, segment.trip.endDate)}
        </p>
        <h1>
          <TextInLanguage value={segmentName(segment, t)} />
        </h1>
        <div className="row" aria-live="polite">
          <span className={['chip', STATUS_TONES[status] ?? 'chip-info'].join(' ')}>
            {statusLabel(segment, t)}
          </span>
          {delayed && (
            <span className="warning-text">
              {t('segment.late', { duration: format.duration(segment.delayMinutes) })}
            </span>
          )}
          <span className="small muted">
            {t('segment.updated', { when: format.relative(segment.updatedAt) })}
            {refreshing ? t('segment.checking') : ''}
          </span>
        </div>
      </header>

      <section className="card segment-times" aria-label={t('segment.schedule')}>
        <TimeBlock
          label={t(kind.start)}
          place={segment.origin}
          scheduled={segment.scheduledDeparture}
          estimated={segment.estimatedDeparture}
          cancelled={status === 'CANCELLED'}
          format={format}
          showPlace={transport}
        />
        <span className="segment-arrow" aria-hidden="true">
          →
        </span>
        <TimeBlock
          label={t(kind.end)}
          place={segment.destination}
          scheduled={segment.scheduledArrival}
          estimated={segment.estimatedArrival}
          cancelled={status === 'CANCELLED'}
          format={format}
          showPlace={transport}
          dayShift={
            transport
              ? dayOffset(
                  segment.estimatedDeparture,
                  segment.origin.timeZone,
                  segment.estimatedArrival,
                  segment.destination.timeZone,
                )
              : 0
          }
        />
      </section>

      <section className="card" aria-labelledby="segment-details-title">
        <h2 id="segment-details-title">{t('segment.details')}</h2>
        <SegmentFacts segment={segment} />
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
  showPlace,
  dayShift = 0,
}: {
  label: string;
  place: SegmentPlace;
  scheduled: string;
  estimated: string;
  cancelled: boolean;
  format: Formatters;
  showPlace: boolean;
  dayShift?: number;
}) {
  const t = useT();
  return (
    <div className="time-block">
      <span className="small muted">{label}</span>
      <p className="segment-time">
        <ChangedTime
          scheduled={scheduled}
          estimated={estimated}
          timeZone={place.timeZone}
          cancelled={cancelled}
          format={format}
        />
        {dayShift > 0 && <sup className="day-offset">{`+${dayShift}`}</sup>}
      </p>
      {showPlace && (
        <p className="small">
          <strong>{place.code ?? place.name}</strong> {place.code ? place.name : ''} · {place.city}
        </p>
      )}
      <p className="small muted">
        {t('segment.localTime', {
          date: format.calendarDate(estimated.slice(0, 10), 'long'),
          zone: zoneName(estimated, place.timeZone, format.locale),
        })}
      </p>
    </div>
  );
}
