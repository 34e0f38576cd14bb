import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Segment, TripDetails } from '#shared/upstream/trips.ts';
import { segmentEvents, tripCalendar } from './trip-calendar.ts';

const place = (name: string, code: string, city: string, timeZone: string) => ({
  name,
  code,
  city,
  timeZone,
});
const ZURICH = place('Zurich Airport', 'ZRH', 'Zurich', 'Europe/Zurich');
const NEW_YORK = place('John F. Kennedy International', 'JFK', 'New York', 'America/New_York');
const TOKYO = place('Haneda', 'HND', 'Tokyo', 'Asia/Tokyo');

function segment(overrides: Partial<Segment>): Segment {
  return {
    segmentId: '00000000-0000-4000-8000-000000000001',
    tripId: '00000000-0000-4000-8000-0000000000aa',
    kind: 'flight',
    title: 'LX 14 Zurich to New York',
    status: 'SCHEDULED',
    origin: ZURICH,
    destination: NEW_YORK,
    scheduledDeparture: '2027-03-27T13:00:00+01:00',
    scheduledArrival: '2027-03-27T16:10:00-04:00',
    estimatedDeparture: '2027-03-27T13:00:00+01:00',
    estimatedArrival: '2027-03-27T16:10:00-04:00',
    delayMinutes: 0,
    carrier: { code: 'LX', name: 'Swiss' },
    serviceNumber: 'LX 14',
    terminal: 'E',
    gate: null,
    seat: '12A',
    bookingReference: 'K7Q2ZP',
    updatedAt: '2026-11-26T08:00:00.000Z',
    ...overrides,
  };
}

/**
 * Crossing both DST changes of spring 2027 on purpose: New York moves on 14 March, Zurich on 28 March,
 * Tokyo never. The flight out lands in New York's summer time before Zurich's; the one back departs
 * from New York after Zurich moved too.
 */
const TRIP: TripDetails = {
  tripId: '00000000-0000-4000-8000-0000000000aa',
  title: 'Around the world',
  startDate: '2027-03-27',
  endDate: '2027-04-02',
  status: 'ON_TRACK',
  cities: ['New York', 'Tokyo'],
  segmentKinds: ['flight', 'stay', 'flight'],
  disruptedSegments: 0,
  segments: [
    segment({}),
    segment({
      segmentId: '00000000-0000-4000-8000-000000000002',
      kind: 'stay',
      title: 'The Standard, High Line',
      origin: place('The Standard', 'STD', 'New York', 'America/New_York'),
      destination: place('The Standard', 'STD', 'New York', 'America/New_York'),
      estimatedDeparture: '2027-03-27T15:00:00-04:00',
      estimatedArrival: '2027-03-29T11:00:00-04:00',
      address: '848 Washington St, New York',
      carrier: null,
      serviceNumber: null,
      seat: null,
      terminal: null,
    }),
    segment({
      segmentId: '00000000-0000-4000-8000-000000000003',
      title: 'JL 5 New York to Tokyo',
      status: 'CANCELLED',
      origin: NEW_YORK,
      destination: TOKYO,
      estimatedDeparture: '2027-03-29T13:05:00-04:00',
      estimatedArrival: '2027-03-30T16:25:00+09:00',
    }),
  ],
};

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const zones = new Map(
    calendar
      .getAllSubcomponents('vtimezone')
      .map((component) => [component.getFirstPropertyValue('tzid') as string, new ICAL.Timezone(component)]),
  );
  const instant = (event: ICAL.Component, name: string): string => {
    const property = event.getFirstProperty(name)!;
    const time = (property.getFirstValue() as ICAL.Time).clone();
    time.zone = zones.get(property.getParameter('tzid') as string)!;
    return new Date(time.toUnixTime() * 1000).toISOString();
  };
  return { calendar, zones, instant, events: calendar.getAllSubcomponents('vevent') };
}

describe('the trip calendar', () => {
  it('gives each segment an event at its local times in its own zones, exact across DST changes', () => {
    const events = segmentEvents([TRIP], 'https://wayfare.example');
    const text = tripCalendar(events, new Map());
    const { events: parsed, instant, zones } = parse(text);
    expect([...zones.keys()].sort()).toEqual(['America/New_York', 'Asia/Tokyo', 'Europe/Zurich']);
    expect(parsed).toHaveLength(3);
    TRIP.segments.forEach((original, index) => {
      const event = parsed[index]!;
      expect(instant(event, 'dtstart')).toBe(new Date(original.estimatedDeparture).toISOString());
      expect(instant(event, 'dtend')).toBe(new Date(original.estimatedArrival).toISOString());
      expect(event.getFirstProperty('dtstart')!.getParameter('tzid')).toBe(original.origin.timeZone);
      expect(event.getFirstProperty('dtend')!.getParameter('tzid')).toBe(original.destination.timeZone);
    });
    expect(text).toContain('DTSTART;TZID=Europe/Zurich:20270327T130000');
    expect(text).toContain('DTEND;TZID=Asia/Tokyo:20270330T162500');
  });

  it('says where, which booking, links back to the segment page and marks a cancelled segment', () => {
    const { events } = parse(tripCalendar(segmentEvents([TRIP], 'https://wayfare.example'), new Map()));
    const [flight, stay, cancelled] = events as [ICAL.Component, ICAL.Component, ICAL.Component];
    expect(flight.getFirstPropertyValue('location')).toBe('Zurich Airport (ZRH), Zurich');
    expect(flight.getFirstPropertyValue('description')).toContain('Booking reference: K7Q2ZP');
    expect(flight.getFirstPropertyValue('url')).toBe(
      'https://wayfare.example/trips/00000000-0000-4000-8000-0000000000aa/segment/00000000-0000-4000-8000-000000000001',
    );
    expect(flight.getFirstPropertyValue('uid')).toBe('segment-00000000-0000-4000-8000-000000000001@wayfare');
    expect(flight.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(stay.getFirstPropertyValue('location')).toBe('848 Washington St, New York');
    expect(stay.getFirstPropertyValue('transp')).toBe('TRANSPARENT');
    expect(cancelled.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('names a train seat by its coach and seat, a flight seat by its seat', () => {
    const train = segment({
      segmentId: '00000000-0000-4000-8000-000000000004',
      kind: 'rail',
      title: 'Zurich → Basel',
      origin: place('Zurich Central Station', 'ZRH-HB', 'Zurich', 'Europe/Zurich'),
      destination: place('Basel Central Station', 'BSL-SBB', 'Basel', 'Europe/Zurich'),
      carrier: { code: 'XR', name: 'Express Rail' },
      serviceNumber: 'XR 412',
      terminal: null,
      seat: '23',
      coach: '4',
    });
    const { events } = parse(
      tripCalendar(
        segmentEvents([{ ...TRIP, segments: [TRIP.segments[0]!, train] }], 'https://wayfare.example'),
        new Map(),
      ),
    );
    expect(events[0]!.getFirstPropertyValue('description')).toContain('Terminal E · Seat 12A');
    expect(events[1]!.getFirstPropertyValue('description')).toContain('Coach 4 · Seat 23');
  });

  it('changes the fingerprint of a delayed segment only, and writes the SEQUENCE it is given', () => {
    const before = segmentEvents([TRIP], 'https://wayfare.example');
    const delayed: TripDetails = {
      ...TRIP,
      segments: TRIP.segments.map((original, index) =>
        index === 0
          ? {
              ...original,
              status: 'DELAYED',
              delayMinutes: 45,
              estimatedDeparture: '2027-03-27T13:45:00+01:00',
              estimatedArrival: '2027-03-27T16:55:00-04:00',
            }
          : original,
      ),
    };
    const after = segmentEvents([delayed], 'https://wayfare.example');
    expect(after.map((event, index) => event.fingerprint === before[index]!.fingerprint)).toEqual([
      false,
      true,
      true,
    ]);
    const { events } = parse(tripCalendar(after, new Map([[after[0]!.uid, 1]])));
    expect(events[0]!.getFirstPropertyValue('sequence')).toBe(1);
    expect(events[1]!.getFirstPropertyValue('sequence')).toBe(0);
  });

  it('gives the same text for the same trips', () => {
    const events = segmentEvents([TRIP], 'https://wayfare.example');
    expect(tripCalendar(events, new Map())).toBe(tripCalendar(events, new Map()));
  });
});
