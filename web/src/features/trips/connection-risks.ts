import type { Segment } from '#shared/api/trips.ts';

/**
 * Minutes a traveler needs between arriving by flight or train and the start of what follows, by the kind
 * of what follows: a flight's minimum connection time (through security and to the gate), a train's
 * platform change, the walk to a car-rental desk. Recorded in docs/decisions.md.
 */
export const MINIMUM_CONNECTION_MINUTES: Readonly<Record<string, number>> = { flight: 60, rail: 20, car: 30 };
/** From the arrival airport or station to the hotel's front desk. */
export const HOTEL_TRANSFER_MINUTES = 60;
/** A later segment starting more than this after an arrival does not connect to it. */
const CONNECTION_HORIZON_MINUTES = 24 * 60;

const TRANSPORT_KINDS = new Set(['flight', 'rail']);

export type ConnectionRisk =
  /** Too little time between an arrival and a flight, train or car pick-up that follows it. */
  | {
      kind: 'short-connection';
      arrival: Segment;
      /** The kind of what follows: flight, rail or car. */
      nextKind: string;
      availableMinutes: number;
      neededMinutes: number;
    }
  /** The arrival reaches the hotel after midnight of the check-in day: the first night may be a no-show. */
  | { kind: 'late-check-in'; arrival: Segment; reachesAt: string }
  /** An earlier flight or train of the trip is cancelled: the traveler may not get here. */
  | { kind: 'after-cancellation'; cancelled: Segment };

const minutesBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 60_000;

/** The end of the local calendar day of a local ISO time with its offset (`2026-03-01T15:00:00+01:00`). */
function endOfLocalDay(localIso: string): number {
  return Date.parse(`${localIso.slice(0, 10)}T00:00:00${localIso.slice(19)}`) + 86_400_000;
}

/**
 * Which segments of a trip the live state of the segments before them puts at risk, and why. Segments come
 * in timeline order; times are compared as instants, so zones and midnight need no special care.
 */
export function connectionRisks(segments: readonly Segment[]): Map<string, ConnectionRisk> {
  const risks = new Map<string, ConnectionRisk>();
  let arrival: Segment | undefined;
  let cancelled: Segment | undefined;
  for (const segment of segments) {
    if (segment.status === 'CANCELLED') {
      if (TRANSPORT_KINDS.has(segment.kind) && !isReplaced(segment, segments)) cancelled ??= segment;
      continue;
    }
    if (cancelled) {
      risks.set(segment.segmentId, { kind: 'after-cancellation', cancelled });
    } else if (arrival) {
      const risk = riskAfter(arrival, segment);
      if (risk) risks.set(segment.segmentId, risk);
    }
    if (TRANSPORT_KINDS.has(segment.kind)) arrival = segment;
  }
  return risks;
}

/**
 * A cancelled flight or train that the trip no longer needs: a standing flight or train of the trip leaves
 * from its origin, and one (the same or a later one) reaches its destination. The replacement's own
 * connections are judged as any other arrival's.
 */
function isReplaced(cancelled: Segment, segments: readonly Segment[]): boolean {
  if (cancelled.origin.code === null || cancelled.destination.code === null) return false;
  const standing = segments.filter(
    (segment) => segment.status !== 'CANCELLED' && TRANSPORT_KINDS.has(segment.kind),
  );
  return standing.some(
    (first) =>
      first.origin.code === cancelled.origin.code &&
      standing.some(
        (last) =>
          last.destination.code === cancelled.destination.code &&
          Date.parse(last.scheduledArrival) >= Date.parse(first.scheduledDeparture),
      ),
  );
}

function riskAfter(arrival: Segment, next: Segment): ConnectionRisk | undefined {
  if (minutesBetween(arrival.scheduledArrival, next.scheduledDeparture) > CONNECTION_HORIZON_MINUTES) {
    return undefined;
  }
  const gap = connectionGap(arrival.estimatedArrival, next);
  if (!gap) return undefined;
  if (gap.kind === 'late-check-in') {
    return { kind: 'late-check-in', arrival, reachesAt: new Date(gap.reachesAt).toISOString() };
  }
  return { ...gap, arrival };
}

/** Why an arrival at `arrivalTime` misses `next`, or undefined when it makes it. */
function connectionGap(
  arrivalTime: string,
  next: Segment,
):
  | { kind: 'late-check-in'; reachesAt: number }
  | { kind: 'short-connection'; nextKind: string; availableMinutes: number; neededMinutes: number }
  | undefined {
  if (next.kind === 'stay') {
    const reachesAt = Date.parse(arrivalTime) + HOTEL_TRANSFER_MINUTES * 60_000;
    return reachesAt > endOfLocalDay(next.scheduledDeparture)
      ? { kind: 'late-check-in', reachesAt }
      : undefined;
  }
  const neededMinutes = MINIMUM_CONNECTION_MINUTES[next.kind];
  if (neededMinutes === undefined) return undefined;
  const availableMinutes = minutesBetween(arrivalTime, next.estimatedDeparture);
  return availableMinutes < neededMinutes
    ? { kind: 'short-connection', nextKind: next.kind, availableMinutes, neededMinutes }
    : undefined;
}

/**
 * Whether a flight replacing `leg` and arriving at `arrivalTime` keeps the rest of the trip: it makes
 * every standing segment that follows the leg up to the next flight or train, by the same minimums.
 */
export function keepsTrip(arrivalTime: string, leg: Segment, segments: readonly Segment[]): boolean {
  const after = segments.filter(
    (segment) =>
      segment.segmentId !== leg.segmentId &&
      segment.status !== 'CANCELLED' &&
      Date.parse(segment.scheduledDeparture) >= Date.parse(leg.scheduledDeparture),
  );
  const nextTransport = after.findIndex((segment) => TRANSPORT_KINDS.has(segment.kind));
  const following = nextTransport === -1 ? after : after.slice(0, nextTransport + 1);
  return following.every((segment) => connectionGap(arrivalTime, segment) === undefined);
}

/** The flight or train whose live state puts a segment at risk: the one to replace. */
export function brokenLeg(risk: ConnectionRisk): Segment {
  return risk.kind === 'after-cancellation' ? risk.cancelled : risk.arrival;
}

/**
 * The at-risk notes that offer other flights, by the segment at risk: for each flight still to depart
 * whose state puts later segments at risk, the first of those segments' notes, with the flight to replace.
 */
export function replaceableLegs(risks: Map<string, ConnectionRisk>, now = Date.now()): Map<string, Segment> {
  const offered = new Map<string, Segment>();
  const legs = new Set<string>();
  for (const [segmentId, risk] of risks) {
    const leg = brokenLeg(risk);
    if (leg.kind !== 'flight' || !leg.origin.code || !leg.destination.code || legs.has(leg.segmentId))
      continue;
    if (Date.parse(leg.scheduledDeparture) <= now) continue;
    legs.add(leg.segmentId);
    offered.set(segmentId, leg);
  }
  return offered;
}
