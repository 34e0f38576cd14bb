import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import type { Segment, TripDetails } from '#shared/upstream/trips.ts';
import type { EventRevision } from './calendar-feed-store.ts';
import { vtimezoneComponent } from './vtimezone-component.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Kinds of segment a traveler occupies a place rather than travels: shown as free time, not busy. */
const PLACE_KINDS = new Set(['stay']);

/** One segment's calendar event before its SEQUENCE is known: its UID and a digest of everything it says. */
export interface SegmentEvent extends EventRevision {
  segment: Segment;
  component: ICAL.Component;
}

/** The wall-clock part of a local ISO 8601 time with offset (`2026-12-01T07:35:00+01:00`). */
function wallClock(localIso: string): ICAL.Time {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(localIso);
  if (!match) throw new Error(`Not a local ISO 8601 time: ${localIso}`);
  const [, year, month, day, hour, minute, second] = match.map(Number);
  return ICAL.Time.fromData({
    year,
    month,
    day,
    hour,
    minute,
    second: Number.isNaN(second) ? 0 : second,
    isDate: false,
  });
}

function zonedProperty(name: 'dtstart' | 'dtend', localIso: string, timeZone: string): ICAL.Property {
  const property = new ICAL.Property(name);
  property.setValue(wallClock(localIso));
  property.setParameter('tzid', timeZone);
  return property;
}

function utc(iso: string): ICAL.Time {
  return ICAL.Time.fromJSDate(new Date(iso), true);
}

function place(segment: Segment): string {
  const { origin } = segment;
  if (PLACE_KINDS.has(segment.kind) || segment.kind === 'car') {
    return segment.address ?? `${origin.name}, ${origin.city}`;
  }
  return origin.code ? `${origin.name} (${origin.code}), ${origin.city}` : `${origin.name}, ${origin.city}`;
}

function description(segment: Segment, link: string): string {
  const service = [segment.carrier?.name, segment.serviceNumber].filter(Boolean).join(' ');
  const seating = [
    segment.terminal && `Terminal ${segment.terminal}`,
    segment.gate && `Gate ${segment.gate}`,
    segment.coach && `Coach ${segment.coach}`,
    segment.seat && `Seat ${segment.seat}`,
  ].filter(Boolean);
  const status =
    segment.status === 'CANCELLED'
      ? 'Cancelled'
      : segment.delayMinutes > 0
        ? `Delayed by ${segment.delayMinutes} min`
        : undefined;
  return [
    status,
    service || undefined,
    `${segment.origin.city} → ${segment.destination.city}`,
    seating.length > 0 ? seating.join(' · ') : undefined,
    `Booking reference: ${segment.bookingReference}`,
    `Open in Wayfare: ${link}`,
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

/**
 * The event of one segment, without SEQUENCE and DTSTAMP: it starts at the estimated departure (check-in,
 * pick-up) in the origin's zone and ends at the estimated arrival (check-out, drop-off) in the
 * destination's zone, so a delay moves it; a cancelled segment stays as STATUS:CANCELLED.
 */
function segmentComponent(segment: Segment, appOrigin: string): ICAL.Component {
  const link = new URL(
    `/trips/${encodeURIComponent(segment.tripId)}/segment/${encodeURIComponent(segment.segmentId)}`,
    appOrigin,
  ).href;
  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', `segment-${segment.segmentId}@wayfare`);
  event.addPropertyWithValue('summary', segment.title);
  event.addProperty(zonedProperty('dtstart', segment.estimatedDeparture, segment.origin.timeZone));
  event.addProperty(zonedProperty('dtend', segment.estimatedArrival, segment.destination.timeZone));
  event.addPropertyWithValue('location', place(segment));
  event.addPropertyWithValue('description', description(segment, link));
  event.addPropertyWithValue('url', link);
  event.addPropertyWithValue('status', segment.status === 'CANCELLED' ? 'CANCELLED' : 'CONFIRMED');
  event.addPropertyWithValue('transp', PLACE_KINDS.has(segment.kind) ? 'TRANSPARENT' : 'OPAQUE');
  return event;
}

/** Every segment of the trips as an event, with the digest that decides whether its SEQUENCE moves. */
export function segmentEvents(trips: readonly TripDetails[], appOrigin: string): SegmentEvent[] {
  return trips.flatMap((trip) =>
    trip.segments.map((segment) => {
      const component = segmentComponent(segment, appOrigin);
      return {
        uid: `segment-${segment.segmentId}@wayfare`,
        fingerprint: createHash('sha256').update(component.toString()).digest('base64url'),
        segment,
        component,
      };
    }),
  );
}

/**
 * The iCalendar (RFC 5545) text of the events: a VTIMEZONE for every zone they use, exact over their
 * span, and each event with its SEQUENCE and, as DTSTAMP and LAST-MODIFIED, when its segment last
 * changed (so the same trips give the same bytes).
 */
export function tripCalendar(
  events: readonly SegmentEvent[],
  sequences: ReadonlyMap<string, number>,
): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', '-//Wayfare//Trip calendar//EN');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  calendar.addPropertyWithValue('name', 'Wayfare trips');
  calendar.addPropertyWithValue('x-wr-calname', 'Wayfare trips');
  const refresh = new ICAL.Property('refresh-interval');
  refresh.resetType('duration');
  refresh.setValue(ICAL.Duration.fromSeconds(3600));
  refresh.setParameter('value', 'DURATION');
  calendar.addProperty(refresh);
  calendar.addPropertyWithValue('x-published-ttl', 'PT1H');

  const spans = new Map<string, { from: number; to: number }>();
  const widen = (timeZone: string, instant: number): void => {
    const span = spans.get(timeZone) ?? { from: instant, to: instant };
    spans.set(timeZone, { from: Math.min(span.from, instant), to: Math.max(span.to, instant) });
  };
  for (const { segment } of events) {
    widen(segment.origin.timeZone, Date.parse(segment.estimatedDeparture));
    widen(segment.destination.timeZone, Date.parse(segment.estimatedArrival));
  }
  for (const [timeZone, { from, to }] of [...spans].sort(([a], [b]) => a.localeCompare(b))) {
    calendar.addSubcomponent(vtimezoneComponent(timeZone, from - DAY_MS, to + DAY_MS));
  }

  for (const { uid, segment, component } of events) {
    const event = new ICAL.Component(structuredClone(component.toJSON()) as unknown[]);
    event.addPropertyWithValue('sequence', sequences.get(uid) ?? 0);
    event.addPropertyWithValue('dtstamp', utc(segment.updatedAt));
    event.addPropertyWithValue('last-modified', utc(segment.updatedAt));
    calendar.addSubcomponent(event);
  }
  return calendar.toString();
}
