import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarFeedAddressSchema, CalendarFeedStatusSchema } from '#shared/api/calendar-feed.ts';
import { TripDetailsSchema, TripsPageSchema, type Segment } from '#shared/upstream/trips.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import type { TestBrowser } from '../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../test-support/gateway-stack.ts';

const SAME_ORIGIN = { 'x-requested-with': 'wayfare' };

async function json(browser: TestBrowser, method: string, path: string): Promise<unknown> {
  const response = await browser.fetch(path, { method, headers: SAME_ORIGIN });
  expect(response.status).toBeLessThan(300);
  return response.status === 204 ? undefined : response.json();
}

async function turnOn(browser: TestBrowser): Promise<string> {
  return CalendarFeedAddressSchema.parse(await json(browser, 'POST', '/api/calendar-feed')).url;
}

/** The traveler's segments as the trip pages show them. */
async function tripSegments(browser: TestBrowser): Promise<Segment[]> {
  const page = TripsPageSchema.parse(await json(browser, 'GET', '/api/trips?limit=100'));
  const trips = await Promise.all(
    page.items.map(async (trip) =>
      TripDetailsSchema.parse(await json(browser, 'GET', `/api/trips/${trip.tripId}`)),
    ),
  );
  return trips.flatMap((trip) => trip.segments);
}

interface ParsedFeed {
  events: Map<string, ICAL.Component>;
  /** An event's DTSTART or DTEND as a UTC instant, resolved through the feed's own VTIMEZONE. */
  instant: (event: ICAL.Component, name: 'dtstart' | 'dtend') => string;
}

function parseFeed(text: string): ParsedFeed {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const zones = new Map(
    calendar
      .getAllSubcomponents('vtimezone')
      .map((zone) => [zone.getFirstPropertyValue('tzid') as string, new ICAL.Timezone(zone)]),
  );
  const events = new Map(
    calendar
      .getAllSubcomponents('vevent')
      .map((event) => [event.getFirstPropertyValue('uid') as string, event]),
  );
  return {
    events,
    instant: (event, name) => {
      const property = event.getFirstProperty(name)!;
      const time = (property.getFirstValue() as ICAL.Time).clone();
      time.zone = zones.get(property.getParameter('tzid') as string)!;
      return new Date(time.toUnixTime() * 1000).toISOString();
    },
  };
}

/** An event's SEQUENCE (ical.js types every value as any property value). */
const sequenceOf = (event: ICAL.Component) => Number(event.getFirstPropertyValue('sequence'));
const uidOf = (segment: Segment) => `segment-${segment.segmentId}@wayfare`;
const instantOf = (localIso: string) => new Date(localIso).toISOString();

describe('the calendar feed over the real stand-ins', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;
  let sam: TestBrowser;
  /** A browser with no cookie at all, as a calendar app fetches. */
  let calendarApp: TestBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack();
    alex = await stack.signIn();
    sam = await stack.signIn('sam@wayfare.example', 'sam-demo');
    calendarApp = stack.browser();
  }, 60_000);

  afterAll(async () => {
    await stack.close();
  });

  async function feed(url: string): Promise<Response> {
    return calendarApp.fetch(url);
  }

  it("serves the trips without a session cookie, one event per segment at the trip pages' times in three zones or more", async () => {
    expect(CalendarFeedStatusSchema.parse(await json(alex, 'GET', '/api/calendar-feed'))).toEqual({
      enabled: false,
      createdAt: null,
    });
    const url = await turnOn(alex);
    expect(url).toMatch(/^http:\/\/localhost:3000\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(CalendarFeedStatusSchema.parse(await json(alex, 'GET', '/api/calendar-feed')).enabled).toBe(true);

    const response = await feed(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('set-cookie')).toBeNull();
    const { events, instant } = parseFeed(await response.text());

    const segments = await tripSegments(alex);
    expect(events.size).toBe(segments.length);
    const zones = new Set(
      segments.flatMap((segment) => [segment.origin.timeZone, segment.destination.timeZone]),
    );
    expect(zones.size).toBeGreaterThanOrEqual(3);
    for (const segment of segments) {
      const event = events.get(uidOf(segment))!;
      expect(event.getFirstProperty('dtstart')!.getParameter('tzid')).toBe(segment.origin.timeZone);
      expect(event.getFirstProperty('dtend')!.getParameter('tzid')).toBe(segment.destination.timeZone);
      expect(instant(event, 'dtstart')).toBe(instantOf(segment.estimatedDeparture));
      expect(instant(event, 'dtend')).toBe(instantOf(segment.estimatedArrival));
      expect(event.getFirstPropertyValue('description')).toContain(segment.bookingReference);
      expect(event.getFirstPropertyValue('url')).toBe(
        `http://localhost:3000/trips/${segment.tripId}/segment/${segment.segmentId}`,
      );
    }
  });

  it('answers 304 to a calendar app revalidating with the ETag while nothing changed', async () => {
    const url = await turnOn(alex);
    const first = await feed(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await calendarApp.fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it("moves a delayed segment's event and counts its SEQUENCE up, and only its own", async () => {
    const url = await turnOn(alex);
    const before = parseFeed(await (await feed(url)).text());
    const simulated = await stack.admin('POST', '/admin/simulate', {
      traveler: 'alex@wayfare.example',
      type: 'SEGMENT_DELAYED',
      minutes: 50,
    });
    expect(simulated.status).toBe(201);
    const { segment: delayed } = (await simulated.json()) as { segment: Segment };

    const after = parseFeed(await (await feed(url)).text());
    const event = after.events.get(uidOf(delayed))!;
    expect(after.instant(event, 'dtstart')).toBe(instantOf(delayed.estimatedDeparture));
    expect(after.instant(event, 'dtend')).toBe(instantOf(delayed.estimatedArrival));
    const previous = before.events.get(uidOf(delayed))!;
    expect(
      Date.parse(after.instant(event, 'dtstart')) - Date.parse(before.instant(previous, 'dtstart')),
    ).toBe(50 * 60_000);
    expect(sequenceOf(event)).toBe(sequenceOf(previous) + 1);
    for (const [uid, other] of after.events) {
      if (uid === uidOf(delayed)) continue;
      expect(sequenceOf(other)).toBe(sequenceOf(before.events.get(uid)!));
    }
  });

  it('marks a cancelled segment STATUS:CANCELLED under the same UID with a higher SEQUENCE', async () => {
    const url = await turnOn(alex);
    const before = parseFeed(await (await feed(url)).text());
    const simulated = await stack.admin('POST', '/admin/simulate', {
      traveler: 'alex@wayfare.example',
      type: 'SEGMENT_CANCELLED',
    });
    expect(simulated.status).toBe(201);
    const { segment: cancelled } = (await simulated.json()) as { segment: Segment };
    const event = parseFeed(await (await feed(url)).text()).events.get(uidOf(cancelled))!;
    expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(sequenceOf(event)).toBeGreaterThan(sequenceOf(before.events.get(uidOf(cancelled))!));
  });

  it('answers the error envelope with 404 for a rotated, a revoked and a made-up address', async () => {
    const first = await turnOn(alex);
    const rotated = await turnOn(alex);
    for (const url of [
      first,
      `http://localhost:3000/calendar/${'A'.repeat(43)}.ics`,
      'http://localhost:3000/calendar/x',
    ]) {
      const response = await feed(url);
      expect(response.status).toBe(404);
      const { error } = ErrorEnvelopeSchema.parse(await response.json());
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
      expect(JSON.stringify(error)).not.toMatch(/at .*\.ts/);
    }
    expect((await feed(rotated)).status).toBe(200);
    const tokens = [first, rotated].map((url) => /\/calendar\/([^.]+)\.ics$/.exec(url)![1]!);
    const logs = stack.bffLogs.join('\n');
    expect(logs).toContain('/calendar/:file');
    for (const token of tokens) expect(logs).not.toContain(token);
    await json(alex, 'DELETE', '/api/calendar-feed');
    expect((await feed(rotated)).status).toBe(404);
    expect(CalendarFeedStatusSchema.parse(await json(alex, 'GET', '/api/calendar-feed')).enabled).toBe(false);
  });

  it("never shows another traveler's trips", async () => {
    const alexUrl = await turnOn(alex);
    const samUrl = await turnOn(sam);
    const samFeed = parseFeed(await (await feed(samUrl)).text());
    const alexFeed = parseFeed(await (await feed(alexUrl)).text());
    const samSegments = await tripSegments(sam);
    expect([...samFeed.events.keys()].sort()).toEqual(samSegments.map(uidOf).sort());
    for (const uid of alexFeed.events.keys()) expect(samFeed.events.has(uid)).toBe(false);
  });

  it('needs the traveler signed in somewhere to read their trips, and says so', async () => {
    const jordan = await stack.signIn('jordan@wayfare.example', 'jordan-demo');
    const url = await turnOn(jordan);
    expect((await feed(url)).status).toBe(200);
    const signedOut = await jordan.fetch('/auth/logout', { method: 'POST', headers: SAME_ORIGIN });
    expect(signedOut.status).toBe(200);
    const response = await feed(url);
    expect(response.status).toBe(503);
    const { error } = ErrorEnvelopeSchema.parse(await response.json());
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' });
  });

  it('limits how often one address may ask for feeds', async () => {
    const limited = await stack.startBff({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' });
    const url = `${limited.url}/calendar/${'B'.repeat(43)}.ics`;
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
    const refused = await fetch(url);
    expect(refused.status).toBe(429);
    expect(ErrorEnvelopeSchema.parse(await refused.json()).error.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});
