import { describe, expect, it } from 'vitest';
import type { Segment } from '#shared/api/trips.ts';
import { connectionRisks, keepsTrip } from './connection-risks.ts';

let counter = 0;
function segment(
  kind: string,
  departure: string,
  arrival: string,
  overrides: Partial<Segment> & { delayMinutes?: number } = {},
): Segment {
  counter += 1;
  const delay = overrides.delayMinutes ?? 0;
  const shift = (iso: string) => {
    const offset = iso.slice(19);
    const instant = new Date(Date.parse(iso) + delay * 60_000);
    const sign = offset.startsWith('-') ? -1 : 1;
    const [hours, minutes] = offset.slice(1).split(':').map(Number);
    const local = new Date(instant.getTime() + sign * ((hours ?? 0) * 60 + (minutes ?? 0)) * 60_000);
    return `${local.toISOString().slice(0, 19)}${offset}`;
  };
  const place = { code: null, name: 'Somewhere', city: 'City', timeZone: 'UTC' };
  return {
    segmentId: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    tripId: '00000000-0000-4000-8000-000000000000',
    kind,
    title: `${kind} ${counter}`,
    status: delay > 0 ? 'DELAYED' : 'SCHEDULED',
    origin: place,
    destination: place,
    scheduledDeparture: departure,
    scheduledArrival: arrival,
    estimatedDeparture: shift(departure),
    estimatedArrival: shift(arrival),
    delayMinutes: delay,
    carrier: null,
    serviceNumber: null,
    terminal: null,
    gate: null,
    seat: null,
    bookingReference: 'ABC123',
    updatedAt: '2026-11-24T00:00:00Z',
    ...overrides,
  };
}

/** What the rules say about each segment after the first, as a short word. */
function verdicts(segments: Segment[]): (string | null)[] {
  const risks = connectionRisks(segments);
  return segments.slice(1).map((item) => risks.get(item.segmentId)?.kind ?? null);
}

describe('connectionRisks', () => {
  it.each([
    {
      name: 'a 90 min connection between flights is fine',
      segments: () => [
        segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00'),
        segment('flight', '2026-12-01T11:30:00+00:00', '2026-12-01T14:00:00+00:00'),
      ],
      expected: [null],
    },
    {
      name: 'a 40 min delay absorbed by a 2 h layover',
      segments: () => [
        segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', { delayMinutes: 40 }),
        segment('flight', '2026-12-01T12:00:00+00:00', '2026-12-01T14:00:00+00:00'),
      ],
      expected: [null],
    },
    {
      name: 'a delay that leaves 35 min to the next flight (needs 60)',
      segments: () => [
        segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', { delayMinutes: 45 }),
        segment('flight', '2026-12-01T11:20:00+00:00', '2026-12-01T14:00:00+00:00'),
      ],
      expected: ['short-connection'],
    },
    {
      name: 'zones: arriving 10:00 in London (UTC) for a 12:30 Paris (UTC+1) departure is 90 min',
      segments: () => [
        segment('flight', '2026-12-01T07:00:00-05:00', '2026-12-01T10:00:00+00:00'),
        segment('flight', '2026-12-01T12:30:00+01:00', '2026-12-01T14:00:00+01:00'),
      ],
      expected: [null],
    },
    {
      name: 'zones: the same wall clocks with the onward flight in UTC+2 leave 30 min',
      segments: () => [
        segment('flight', '2026-12-01T07:00:00-05:00', '2026-12-01T10:00:00+00:00'),
        segment('flight', '2026-12-01T12:30:00+02:00', '2026-12-01T14:00:00+02:00'),
      ],
      expected: ['short-connection'],
    },
    {
      name: 'across midnight: landing 23:30, onward flight 00:50 the next day is 80 min',
      segments: () => [
        segment('flight', '2026-12-01T20:00:00+01:00', '2026-12-01T23:30:00+01:00'),
        segment('flight', '2026-12-02T00:50:00+01:00', '2026-12-02T03:00:00+01:00'),
      ],
      expected: [null],
    },
    {
      name: 'across midnight: a 50 min delay pushes the landing to 00:20, 30 min before the next flight',
      segments: () => [
        segment('flight', '2026-12-01T20:00:00+01:00', '2026-12-01T23:30:00+01:00', { delayMinutes: 50 }),
        segment('flight', '2026-12-02T00:50:00+01:00', '2026-12-02T03:00:00+01:00'),
      ],
      expected: ['short-connection'],
    },
    {
      name: 'a car pick-up 45 min after landing is fine; a 20 min delay leaves 25 (needs 30)',
      segments: () => [
        segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', { delayMinutes: 20 }),
        segment('car', '2026-12-01T10:45:00+00:00', '2026-12-05T09:00:00+00:00'),
      ],
      expected: ['short-connection'],
    },
    {
      name: 'a hotel check-in is at risk only when the traveler reaches it after midnight',
      segments: () => [
        segment('flight', '2026-12-01T15:00:00+01:00', '2026-12-01T18:00:00+01:00', { delayMinutes: 330 }),
        segment('stay', '2026-12-01T19:00:00+01:00', '2026-12-04T11:00:00+01:00'),
      ],
      expected: ['late-check-in'],
    },
    {
      name: 'a late but same-day arrival at the hotel is not a risk',
      segments: () => [
        segment('flight', '2026-12-01T15:00:00+01:00', '2026-12-01T18:00:00+01:00', { delayMinutes: 240 }),
        segment('stay', '2026-12-01T19:00:00+01:00', '2026-12-04T11:00:00+01:00'),
      ],
      expected: [null],
    },
    {
      name: 'a cancelled flight puts everything after it at risk',
      segments: () => [
        segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', { status: 'CANCELLED' }),
        segment('stay', '2026-12-01T15:00:00+00:00', '2026-12-04T11:00:00+00:00'),
        segment('flight', '2026-12-04T15:00:00+00:00', '2026-12-04T17:00:00+00:00'),
      ],
      expected: ['after-cancellation', 'after-cancellation'],
    },
    {
      name: 'a cancelled hotel does not put the flight home at risk',
      segments: () => [
        segment('stay', '2026-12-01T15:00:00+00:00', '2026-12-04T11:00:00+00:00', { status: 'CANCELLED' }),
        segment('flight', '2026-12-04T15:00:00+00:00', '2026-12-04T17:00:00+00:00'),
      ],
      expected: [null],
    },
    {
      name: 'the flight home days later does not connect to the flight out',
      segments: () => [
        segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', { delayMinutes: 600 }),
        segment('flight', '2026-12-04T09:00:00+00:00', '2026-12-04T11:00:00+00:00'),
      ],
      expected: [null],
    },
    {
      name: 'a train to train connection needs 20 min',
      segments: () => [
        segment('rail', '2026-12-01T08:00:00+01:00', '2026-12-01T10:00:00+01:00', { delayMinutes: 10 }),
        segment('rail', '2026-12-01T10:25:00+01:00', '2026-12-01T12:00:00+01:00'),
      ],
      expected: ['short-connection'],
    },
  ])('$name', ({ segments, expected }) => {
    expect(verdicts(segments())).toEqual(expected);
  });

  it('says how much time is left, how much is needed and what the missed connection is', () => {
    const arrival = segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', {
      delayMinutes: 45,
    });
    const onward = segment('flight', '2026-12-01T11:20:00+00:00', '2026-12-01T14:00:00+00:00');
    expect(connectionRisks([arrival, onward]).get(onward.segmentId)).toEqual({
      kind: 'short-connection',
      arrival,
      nextKind: 'flight',
      availableMinutes: 35,
      neededMinutes: 60,
    });
  });
});

describe('a replaced flight and the flights that keep a trip', () => {
  const place = (code: string) => ({ code, name: code, city: code, timeZone: 'UTC' });
  const route = { origin: place('LHR'), destination: place('JFK') };

  it('no longer counts a cancelled flight that a booked flight of the trip replaces', () => {
    const old = segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T16:00:00+00:00', {
      ...route,
      status: 'CANCELLED',
    });
    const replacement = segment('flight', '2026-12-01T09:00:00+00:00', '2026-12-01T17:00:00+00:00', route);
    const hotel = segment('stay', '2026-12-01T15:00:00+00:00', '2026-12-04T11:00:00+00:00');
    expect(connectionRisks([old, replacement, hotel]).size).toBe(0);
    expect(connectionRisks([old, hotel]).get(hotel.segmentId)?.kind).toBe('after-cancellation');
  });

  it('keeps the trip when the arrival leaves the minimum connection time, or an hour to the hotel before midnight', () => {
    const leg = segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T10:00:00+00:00', route);
    const next = segment('flight', '2026-12-01T13:00:00+00:00', '2026-12-01T15:00:00+00:00');
    expect(keepsTrip('2026-12-01T12:00:00+00:00', leg, [leg, next])).toBe(true);
    expect(keepsTrip('2026-12-01T12:01:00+00:00', leg, [leg, next])).toBe(false);
    const hotel = segment('stay', '2026-12-01T15:00:00+00:00', '2026-12-04T11:00:00+00:00');
    expect(keepsTrip('2026-12-01T23:00:00+00:00', leg, [leg, hotel])).toBe(true);
    expect(keepsTrip('2026-12-01T23:01:00+00:00', leg, [leg, hotel])).toBe(false);
    expect(keepsTrip('2026-12-02T09:00:00+00:00', leg, [leg, hotel])).toBe(false);
  });
});
