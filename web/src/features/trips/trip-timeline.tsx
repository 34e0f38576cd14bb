import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Segment, SegmentPlace } from '#shared/api/trips.ts';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import { dayOffset, type Formatters } from '../../lib/intl-format.ts';
import { connectionRisks, replaceableLegs, type ConnectionRisk } from './connection-risks.ts';
import { describeRisk } from './describe-risk.ts';
import { segmentName } from '../../lib/segment-name.ts';
import { placeCity } from '../../lib/city-name.ts';
import { OtherFlightsPanel } from './rebooking/other-flights-panel.tsx';
import { RebookingStatus } from './rebooking/rebooking-status.tsx';
import { TextInLanguage } from '../../components/text-in-language.tsx';
import { isTransport, segmentKind, statusLabel, STATUS_TONES, zoneName } from './segment-kinds.ts';
import { SegmentKindIcon } from './segment-kind-icon.tsx';

const GAP_HORIZON_MINUTES = 24 * 60;

/**
 * Every segment of a trip in order, under a separator for each local day, with times in the zone where
 * they happen, the gap before the next segment, and each later segment that the live state puts at risk.
 */
export function TripTimeline({
  tripId,
  segments,
  format,
  focusSegmentId,
}: {
  tripId: string;
  segments: readonly Segment[];
  format: Formatters;
  focusSegmentId?: string | undefined;
}) {
  const risks = connectionRisks(segments);
  const replaceable = replaceableLegs(risks);
  const t = useT();

  return (
    <>
      <RebookingStatus tripId={tripId} format={format} />
      <ol className="timeline" aria-label={t('segment.timeline')}>
        {segments.map((segment, index) => {
          // A segment stays under the day it was scheduled for: a delay into the next day names the new
          // day at its time instead of moving it (and taking its day's heading with it).
          const startDay = segment.scheduledDeparture.slice(0, 10);
          const previous = segments[index - 1];
          const newDay = startDay !== previous?.scheduledDeparture.slice(0, 10);
          return (
            <Fragment key={segment.segmentId}>
              {newDay && (
                <li className="timeline-day">
                  <h3>{format.calendarDate(startDay, 'long')}</h3>
                </li>
              )}
              {previous && <GapLine from={previous} to={segment} format={format} />}
              <TimelineItem
                tripId={tripId}
                segment={segment}
                risk={risks.get(segment.segmentId)}
                focused={segment.segmentId === focusSegmentId}
                format={format}
                otherFlights={
                  replaceable.get(segment.segmentId) && (
                    <OtherFlightsPanel
                      tripId={tripId}
                      leg={replaceable.get(segment.segmentId)!}
                      segments={segments}
                      format={format}
                      // On the page of the broken flight (where its delay's toast leads) or of the segment it
                      // puts at risk, the other flights are open already.
                      initiallyOpen={
                        focusSegmentId !== undefined &&
                        (focusSegmentId === segment.segmentId ||
                          focusSegmentId === replaceable.get(segment.segmentId)!.segmentId)
                      }
                    />
                  )
                }
              />
            </Fragment>
          );
        })}
      </ol>
    </>
  );
}

function GapLine({ from, to, format }: { from: Segment; to: Segment; format: Formatters }) {
  const t = useT();
  if (from.status === 'CANCELLED' || to.status === 'CANCELLED') return null;
  const minutes = (Date.parse(to.estimatedDeparture) - Date.parse(from.estimatedArrival)) / 60_000;
  if (minutes <= 0 || minutes > GAP_HORIZON_MINUTES) return null;
  const duration = format.duration(minutes);
  const text =
    isTransport(from) && isTransport(to)
      ? t('segmentGap.layover', { duration, city: placeCity(to.origin) })
      : t(segmentKind(to.kind).gap, { duration });
  return (
    <li className="timeline-gap small muted" aria-label={text}>
      {text}
    </li>
  );
}

function TimelineItem({
  tripId,
  segment,
  risk,
  focused,
  format,
  otherFlights,
}: {
  tripId: string;
  segment: Segment;
  risk: ConnectionRisk | undefined;
  focused: boolean;
  format: Formatters;
  otherFlights?: ReactNode;
}) {
  const t = useT();
  const kind = segmentKind(segment.kind);
  const cancelled = segment.status === 'CANCELLED';
  const titleId = `segment-title-${segment.segmentId}`;
  const transport = isTransport(segment);
  const nextDay = dayOffset(
    segment.estimatedDeparture,
    segment.origin.timeZone,
    segment.estimatedArrival,
    segment.destination.timeZone,
  );
  return (
    <li
      id={`segment-${segment.segmentId}`}
      className={['card', 'timeline-item', risk ? 'at-risk' : '', focused ? 'focused' : ''].join(' ').trim()}
      aria-labelledby={titleId}
      aria-current={focused ? 'location' : undefined}
    >
      <div className="row timeline-item-head">
        <span className="timeline-kind small">
          <SegmentKindIcon kind={segment.kind} />
          {t(kind.label)}
        </span>
        <h4 id={titleId}>
          <Link to={`/trips/${encodeURIComponent(tripId)}/segment/${encodeURIComponent(segment.segmentId)}`}>
            <TextInLanguage value={segmentName(segment, t)} />
          </Link>
        </h4>
        <span className={['chip', STATUS_TONES[segment.status] ?? 'chip-info'].join(' ')}>
          {statusLabel(segment, t)}
          {segment.delayMinutes > 0 && !cancelled
            ? ` · ${t('segment.late', { duration: format.duration(segment.delayMinutes) })}`
            : ''}
        </span>
      </div>
      <dl className="timeline-times">
        <dt>{t(kind.start)}</dt>
        <dd>
          <WallTime
            scheduled={segment.scheduledDeparture}
            estimated={segment.estimatedDeparture}
            place={segment.origin}
            cancelled={cancelled}
            format={format}
          />
          {transport && <PlaceName place={segment.origin} />}
        </dd>
        <dt>{t(kind.end)}</dt>
        <dd>
          {!transport && (
            <span className="small muted">
              {format.calendarDate(segment.estimatedArrival.slice(0, 10))} ·{' '}
            </span>
          )}
          <WallTime
            scheduled={segment.scheduledArrival}
            estimated={segment.estimatedArrival}
            place={segment.destination}
            cancelled={cancelled}
            format={format}
            dayShift={transport ? nextDay : 0}
          />
          {transport && <PlaceName place={segment.destination} />}
        </dd>
      </dl>
      <SegmentFacts segment={segment} />
      {risk && (
        <p className="risk-note" role="note">
          <strong>{t('segment.atRisk')}</strong> {describeRisk(risk, format, t)}
        </p>
      )}
      {risk && otherFlights}
    </li>
  );
}

/** What a traveler needs at each kind of place: gate and seat, coach, address, confirmation number. */
export function SegmentFacts({ segment }: { segment: Segment }) {
  const t = useT();
  const notAnnounced = t('facts.notAnnounced');
  const notAssigned = t('facts.notAssigned');
  const facts: [MessageId, string][] = [];
  if (segment.kind === 'flight') {
    if (segment.carrier)
      facts.push(['facts.flight', `${segment.carrier.name} ${segment.serviceNumber ?? ''}`.trim()]);
    facts.push(['facts.terminal', segment.terminal ?? notAnnounced]);
    facts.push(['facts.gate', segment.gate ?? notAnnounced]);
    facts.push(['facts.seat', segment.seat ?? notAssigned]);
  } else if (segment.kind === 'rail') {
    if (segment.carrier)
      facts.push(['facts.train', `${segment.carrier.name} ${segment.serviceNumber ?? ''}`.trim()]);
    facts.push([
      'facts.coachAndSeat',
      segment.seat === null
        ? notAssigned
        : segment.coach
          ? t('facts.coachSeat', { coach: segment.coach, seat: segment.seat })
          : segment.seat,
    ]);
  } else {
    facts.push([segment.kind === 'car' ? 'facts.desk' : 'facts.hotel', segment.origin.name]);
    if (segment.address) facts.push(['facts.address', segment.address]);
  }
  const reference: MessageId =
    segment.kind === 'stay' || segment.kind === 'car' ? 'facts.confirmation' : 'facts.bookingReference';
  facts.push([reference, segment.bookingReference]);
  return (
    <dl className="timeline-facts small">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{t(term)}</dt>
          <dd className={term === reference ? 'mono' : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PlaceName({ place }: { place: SegmentPlace }) {
  return (
    <span className="small">
      {' '}
      <strong>{place.code ?? place.name}</strong> {place.code ? place.name : ''}
    </span>
  );
}

/**
 * A local time; a changed one shows the old time struck through beside the new one, each with its day
 * when the change moves it to another day, on the interface's own clock.
 */
export function ChangedTime({
  scheduled,
  estimated,
  timeZone,
  cancelled,
  format,
}: {
  scheduled: string;
  estimated: string;
  timeZone: string | undefined;
  cancelled: boolean;
  format: Formatters;
}) {
  const t = useT();
  if (cancelled) return <del className="struck">{format.time(scheduled, timeZone)}</del>;
  if (estimated === scheduled) return format.time(scheduled, timeZone);
  const change = format.timeChange(scheduled, estimated, timeZone);
  return (
    <>
      <del className="struck">
        <span className="visually-hidden">{t('segment.scheduled')} </span>
        {change.scheduled}
      </del>{' '}
      <ins className="new-time">
        <span className="visually-hidden">{t('segment.now')} </span>
        {change.estimated}
      </ins>
    </>
  );
}

/** A local time with its zone; a changed time shows the old one struck through beside the new one. */
export function WallTime({
  scheduled,
  estimated,
  place,
  cancelled,
  format,
  dayShift = 0,
}: {
  scheduled: string;
  estimated: string;
  place: SegmentPlace;
  cancelled: boolean;
  format: Formatters;
  dayShift?: number;
}) {
  const t = useT();
  const zone = zoneName(estimated, place.timeZone, format.locale);
  return (
    <span className="wall-time">
      <ChangedTime
        scheduled={scheduled}
        estimated={estimated}
        timeZone={place.timeZone}
        cancelled={cancelled}
        format={format}
      />
      {dayShift > 0 && (
        <sup className="day-offset">
          {`+${dayShift}`}
          <span className="visually-hidden"> {t('segment.days', { count: dayShift })}</span>
        </sup>
      )}{' '}
      <span className="small muted">{zone}</span>
    </span>
  );
}
