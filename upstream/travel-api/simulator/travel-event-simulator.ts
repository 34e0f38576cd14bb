import type { KnownNotificationEventType, NotificationFacts } from '#shared/upstream/notifications.ts';
import type { SegmentDetails } from '#shared/upstream/trips.ts';
import { ServiceError } from '../service-error.ts';
import { dayInWords } from '../notifications/day-in-words.ts';
import type { NotificationCenter, Dispatched } from '../notifications/notification-center.ts';
import type { TravelerStore } from '../travelers/traveler-store.ts';
import type { TripStore } from '../trips/trip-store.ts';

export interface SimulateInput {
  travelerId: string;
  type: KnownNotificationEventType;
  /** SEGMENT_DELAYED only: minutes added to the delay. */
  minutes?: number | undefined;
  /**
   * SEGMENT_DELAYED only: pick the traveler's next flight or train that something in its trip follows, and
   * delay it until it arrives after that next segment starts (for a stay: after midnight on the check-in day).
   */
  breaksConnection?: boolean | undefined;
  /** The segment to affect; by default the traveler's next flight (or next segment). */
  segmentId?: string | undefined;
  /** GATE_CHANGED only: the new gate; by default a different random one. */
  gate?: string | undefined;
}

export interface Simulated extends Dispatched {
  segment: SegmentDetails;
}

export const DEFAULT_DELAY_MINUTES = 45;
/** Kinds that only make sense for flights. */
const FLIGHT_ONLY = new Set<KnownNotificationEventType>(['GATE_CHANGED', 'CHECK_IN_OPEN']);

/**
 * Travel events for a traveler's segments: each one changes the segment where the event implies it
 * (a delay moves its estimated times, a cancellation or gate change its status or gate), then becomes a
 * notification through the notification center (persisted, live, pushed).
 */
export class TravelEventSimulator {
  readonly #trips: TripStore;
  readonly #travelers: TravelerStore;
  readonly #notifications: NotificationCenter;

  constructor({
    trips,
    travelers,
    notifications,
  }: {
    trips: TripStore;
    travelers: TravelerStore;
    notifications: NotificationCenter;
  }) {
    this.#trips = trips;
    this.#travelers = travelers;
    this.#notifications = notifications;
  }

  simulate(input: SimulateInput, now = new Date()): Simulated {
    this.#travelers.ensure({ id: input.travelerId, email: undefined, name: undefined }, now);
    const breaking = input.breaksConnection === true && input.type === 'SEGMENT_DELAYED';
    const broken = breaking ? this.#connectionToBreak(input, now) : undefined;
    const target = broken?.segment ?? this.#segmentFor(input, now);
    const segment = this.#apply(broken ? { ...input, minutes: broken.minutes } : input, target, now);
    const { title, body, severity } = describe(input.type, target, segment);
    const dispatched = this.#notifications.dispatch(
      {
        travelerId: input.travelerId,
        tripId: segment.tripId,
        segmentId: segment.segmentId,
        eventType: input.type,
        severity,
        title,
        body,
        facts: eventFacts(target, segment),
      },
      now,
    );
    return { ...dispatched, segment };
  }

  /** The traveler's segment an event without an explicit segment applies to. */
  defaultSegment(
    travelerId: string,
    type: KnownNotificationEventType,
    now = new Date(),
  ): SegmentDetails | undefined {
    const upcoming = this.#trips.upcomingSegments(travelerId, now);
    return (
      upcoming.find((segment) => segment.kind === 'flight') ??
      (FLIGHT_ONLY.has(type) ? undefined : upcoming[0])
    );
  }

  /** The flight or train to delay so that it misses what follows it, and by how many minutes. */
  #connectionToBreak(input: SimulateInput, now: Date): { segment: SegmentDetails; minutes: number } {
    const upcoming = this.#trips.upcomingSegments(input.travelerId, now);
    const segments = this.#trips.listSegments(input.travelerId);
    for (const segment of upcoming) {
      if (segment.kind !== 'flight' && segment.kind !== 'rail') continue;
      if (input.segmentId !== undefined && segment.segmentId !== input.segmentId) continue;
      const next = segments.find(
        (candidate) =>
          candidate.tripId === segment.tripId &&
          candidate.segmentId !== segment.segmentId &&
          candidate.status !== 'CANCELLED' &&
          Date.parse(candidate.estimatedDeparture) >= Date.parse(segment.estimatedDeparture),
      );
      if (!next) continue;
      const deadline =
        next.kind === 'stay'
          ? Date.parse(
              `${next.scheduledDeparture.slice(0, 10)}T00:00:00${next.scheduledDeparture.slice(19)}`,
            ) + 86_400_000
          : Date.parse(next.estimatedDeparture);
      const minutes = Math.ceil((deadline - Date.parse(segment.estimatedArrival)) / 60_000) + 30;
      if (minutes >= 1 && segment.delayMinutes + minutes <= 24 * 60) return { segment, minutes };
    }
    throw new ServiceError('RESOURCE_NOT_FOUND', {
      message: 'The traveler has no upcoming flight or train with a connection that a delay can break',
    });
  }

  #segmentFor(input: SimulateInput, now: Date): SegmentDetails {
    if (input.segmentId === undefined) {
      const segment = this.defaultSegment(input.travelerId, input.type, now);
      if (!segment) {
        throw new ServiceError('RESOURCE_NOT_FOUND', {
          message: 'The traveler has no upcoming segment for this event',
        });
      }
      return segment;
    }
    const segment = this.#trips
      .listSegments(input.travelerId)
      .find((candidate) => candidate.segmentId === input.segmentId);
    if (!segment)
      throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'The traveler has no such segment' });
    if (FLIGHT_ONLY.has(input.type) && segment.kind !== 'flight') {
      throw new ServiceError('VALIDATION_ERROR', {
        message: 'The request failed validation',
        details: [
          { field: 'segmentId', code: 'flight_required', message: `${input.type} applies to flights only` },
        ],
      });
    }
    return segment;
  }

  #apply(input: SimulateInput, segment: SegmentDetails, now: Date): SegmentDetails {
    const { travelerId } = input;
    const { tripId, segmentId } = segment;
    let updated: SegmentDetails | undefined = segment;
    switch (input.type) {
      case 'SEGMENT_DELAYED':
        updated = this.#trips.delaySegment(
          travelerId,
          tripId,
          segmentId,
          input.minutes ?? DEFAULT_DELAY_MINUTES,
          now,
        );
        break;
      case 'SEGMENT_CANCELLED':
        updated = this.#trips.updateSegmentStatus(
          travelerId,
          tripId,
          segmentId,
          { status: 'CANCELLED' },
          now,
        );
        break;
      case 'GATE_CHANGED':
        updated = this.#trips.updateSegmentStatus(
          travelerId,
          tripId,
          segmentId,
          { gate: input.gate ?? otherGate(segment.gate) },
          now,
        );
        break;
      case 'CHECK_IN_OPEN':
        break;
    }
    if (!updated)
      throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'The traveler has no such segment' });
    return updated;
  }
}

/** The event as values: the segment as it left it, and its delay and gate before. */
function eventFacts(before: SegmentDetails, after: SegmentDetails): NotificationFacts {
  const { trip: _trip, ...segment } = after;
  return { segment, previous: { delayMinutes: before.delayMinutes, gate: before.gate } };
}

function describe(
  type: KnownNotificationEventType,
  before: SegmentDetails,
  after: SegmentDetails,
): { title: string; body: string; severity: string } {
  const label = after.serviceNumber ?? after.title;
  const route = `${after.origin.city} → ${after.destination.city}`;
  switch (type) {
    case 'SEGMENT_DELAYED': {
      const added = after.delayMinutes - before.delayMinutes;
      return {
        title: `${label} is delayed by ${minutesText(after.delayMinutes)}`,
        body: `${route}: new departure ${clock(after.estimatedDeparture)} (scheduled ${clock(
          after.scheduledDeparture,
        )}), arriving ${clock(after.estimatedArrival)}.${added !== after.delayMinutes ? ` ${minutesText(added)} more than announced before.` : ''}`,
        severity: after.delayMinutes >= 180 ? 'critical' : 'warning',
      };
    }
    case 'SEGMENT_CANCELLED':
      return {
        title: `${label} is cancelled`,
        body: `${route} on ${dayInWords(after.scheduledDeparture)} is cancelled. Open the trip to see your options.`,
        severity: 'critical',
      };
    case 'GATE_CHANGED':
      return {
        title: `${label}: gate changed to ${after.gate ?? 'to be announced'}`,
        body: `${route} now departs from gate ${after.gate ?? 'to be announced'}${
          before.gate ? ` (was ${before.gate})` : ''
        }${after.terminal ? `, terminal ${after.terminal}` : ''}.`,
        severity: 'warning',
      };
    case 'CHECK_IN_OPEN':
      return {
        title: `Check-in is open for ${label}`,
        body: `${route} departs ${dayInWords(after.estimatedDeparture)} at ${clock(after.estimatedDeparture)}. Check in now.`,
        severity: 'info',
      };
  }
}

/** `HH:MM` of a local ISO time such as 2026-12-01T07:35:00+01:00. */
function clock(localIso: string): string {
  return localIso.slice(11, 16);
}

function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

function otherGate(current: string | null): string {
  for (let attempt = 0; ; attempt++) {
    const gate = `${'ABCDE'.charAt(Math.floor(Math.random() * 5))}${1 + Math.floor(Math.random() * 48)}`;
    if (gate !== current || attempt > 10) return gate;
  }
}
