import { expect, type Page, type Request } from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import { isoDateFromToday } from '../support/dates.ts';
import { demoControlsInPlace } from '../support/demo-controls.ts';
import type { ReceivedSpan, ReceivedTrace } from '../support/otlp-receiver.ts';
import { FLEET_ORIGIN, FLEET_OTLP_ORIGIN } from '../support/stack.ts';
import { journeyTraveler } from '../support/test-travelers.ts';
import { expectPageAt, withAnyQuery } from '../support/page-location.ts';

/**
 * One trace per traveler action, through the fleet's front: the app starts a trace for its call, nginx
 * passes it to a BFF instance, which continues it and calls the travel API, which continues it too. The
 * fleet's services export their spans to the receiver the fleet journeys start (e2e/support/otlp-receiver.ts),
 * which also reads the travel API's log lines.
 */

/** The app's call to the BFF, once answered through the front: its trace and span ids. */
async function callOf(request: Promise<Request>): Promise<{ traceId: string; spanId: string }> {
  const sent = await request;
  const response = await sent.response();
  expect(response?.ok()).toBe(true);
  // The front names the instance that answered.
  expect(response?.headers()['x-wayfare-instance']).toMatch(/\S/);
  const [, traceId = '', spanId = ''] =
    /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec((await sent.headerValue('traceparent')) ?? '') ?? [];
  expect(traceId).not.toBe('');
  return { traceId, spanId };
}

/**
 * The trace of an app call as exported: the BFF's request span (a child of the app's span), its call to
 * the travel API, the travel API's request span under that call, and the travel API's log line for it.
 */
async function expectTraceThroughFleet(
  page: Page,
  call: { traceId: string; spanId: string },
  routes: { bff: string; travelApi: string },
): Promise<void> {
  let trace: ReceivedTrace = { spans: [], travelApiLogLines: [] };
  const find = (test: (span: ReceivedSpan) => boolean) => trace.spans.find(test);
  const hops = () => {
    const bff = find(
      (span) => span.service === 'wayfare-bff' && span.kind === 2 && span.name === `POST ${routes.bff}`,
    );
    const travelApi = find(
      (span) =>
        span.service === 'wayfare-travel-api' && span.kind === 2 && span.name === `POST ${routes.travelApi}`,
    );
    const bffCall = find((span) => span.spanId === travelApi?.parentSpanId);
    const logLine = trace.travelApiLogLines.find((line) => line.route === routes.travelApi);
    return { bff, bffCall, travelApi, logLine };
  };
  await expect
    .poll(async () => {
      trace = (await (
        await page.request.get(`${FLEET_OTLP_ORIGIN}/traces/${call.traceId}`)
      ).json()) as ReceivedTrace;
      const { bff, travelApi, logLine } = hops();
      return { bff: bff !== undefined, travelApi: travelApi !== undefined, logLine: logLine !== undefined };
    })
    .toEqual({ bff: true, travelApi: true, logLine: true });
  const { bff, bffCall, travelApi, logLine } = hops();
  expect(bff?.parentSpanId).toBe(call.spanId);
  expect(bffCall).toMatchObject({ service: 'wayfare-bff', kind: 3, parentSpanId: bff?.spanId });
  expect(logLine).toMatchObject({ span_id: travelApi?.spanId, status: expect.any(Number) });
}

test('a flight search and a booking each make one trace from the app through the front and a BFF instance to the travel API', async ({
  page,
}, testInfo) => {
  const traveler = journeyTraveler(testInfo.workerIndex, testInfo.repeatEachIndex);
  const flights = `/flights?trip=one-way&leg=ZRH.LHR.${isoDateFromToday(120)}&adults=1&cabin=economy`;
  const search = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/flights/search',
  );
  await page.goto(`/auth/login?returnTo=${encodeURIComponent(flights)}`);
  await submitIdentitySignIn(page, traveler);
  await expectPageAt(page, FLEET_ORIGIN, withAnyQuery('/flights'));
  const searched = await callOf(search);

  await demoControlsInPlace(page);
  const offer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
  await offer.getByText('Details and booking').press('Enter');
  await offer.getByRole('button', { name: /^Book/ }).click();
  await expect(page.getByText('price checked just now')).toBeVisible();
  const booking = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/bookings',
  );
  await page.getByRole('button', { name: /^Book and pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  const booked = await callOf(booking);

  expect(booked.traceId).not.toBe(searched.traceId);
  await expectTraceThroughFleet(page, searched, {
    bff: '/api/flights/search',
    travelApi: '/v1/flights/search',
  });
  await expectTraceThroughFleet(page, booked, { bff: '/api/bookings', travelApi: '/v1/bookings' });
});
