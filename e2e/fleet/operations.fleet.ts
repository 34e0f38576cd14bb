import { expect, type Page } from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import { fillDate, isoDateFromToday } from '../support/dates.ts';
import { inboxCard, raiseDelay } from '../support/notifications.ts';
import { FLEET, FLEET_ORIGIN } from '../support/stack.ts';
import { testTraveler } from '../support/test-travelers.ts';
import { expectPageAt, withAnyQuery } from '../support/page-location.ts';

/**
 * What an operator sees of a traveler's visit: the fleet's Prometheus (started by `npm run start:fleet`)
 * scrapes each BFF instance and the travel API, and after a search, a booking attempt and a delay its
 * HTTP API answers with the counters that moved, on each instance.
 */

const traveler = testTraveler(2);
const PROMETHEUS = `http://127.0.0.1:${FLEET.prometheusPort}`;

/** The value of an instant query, by the instance label of each series (or '' when it has none). */
async function query(page: Page, promql: string): Promise<Record<string, number>> {
  const response = await page.request.get(`${PROMETHEUS}/api/v1/query`, { params: { query: promql } });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  return Object.fromEntries(
    body.data.result.map(({ metric, value }) => [metric.instance ?? '', Number(value[1])]),
  );
}

test('the fleet’s Prometheus shows each instance’s requests, streams, deliveries and bookings moving', async ({
  page,
  admin,
}) => {
  await expect
    .poll(async () => {
      const now = (
        (await (await page.request.get(`${PROMETHEUS}/api/v1/targets`)).json()) as {
          data: { activeTargets: { labels: { job: string }; health: string }[] };
        }
      ).data.activeTargets;
      return now.map((target) => `${target.labels.job} ${target.health}`).sort();
    })
    .toEqual(['wayfare-bff up', 'wayfare-bff up', 'wayfare-travel-api up']);

  await page.goto(`/auth/login?returnTo=${encodeURIComponent('/flights')}`);
  await submitIdentitySignIn(page, traveler);
  await expectPageAt(page, FLEET_ORIGIN, withAnyQuery('/flights'));

  // A search.
  const form = page.getByRole('form', { name: 'Search flights' });
  await form.getByRole('radio', { name: 'One-way' }).check();
  for (const [field, code] of [
    ['From', 'LHR'],
    ['To', 'JFK'],
  ] as const) {
    const airport = form.getByRole('combobox', { name: field });
    await airport.fill(code);
    await page
      .getByRole('option', { name: new RegExp(`\\b${code}\\b`) })
      .first()
      .click();
  }
  await fillDate(form.getByRole('group', { name: 'Date', exact: true }), isoDateFromToday(30));
  await form.getByRole('button', { name: 'Search flights' }).click();
  await expect(page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first()).toContainText(
    'JFK',
  );

  // A booking attempt the BFF refuses (no idempotency key): it is counted by its outcome's code.
  const refused = await page.evaluate(async () => {
    const response = await fetch('/api/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'wayfare' },
      body: '{}',
    });
    return response.status;
  });
  expect(refused).toBe(422);

  // A delay, with the inbox open and live.
  await page.goto('/inbox');
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  const raised = await raiseDelay(admin, traveler.id);
  await expect(inboxCard(page, raised.title)).toHaveCount(1);

  // Every instance answered requests (the front sends them in turn), the travel API too.
  await expect
    .poll(async () =>
      Object.values(
        await query(
          page,
          'sum by (instance) (http_server_request_duration_seconds_count{job="wayfare-bff"})',
        ),
      ).filter((count) => count > 0),
    )
    .toHaveLength(2);
  await expect
    .poll(async () =>
      Object.values(
        await query(
          page,
          'sum(http_server_request_duration_seconds_count{job="wayfare-travel-api",http_route="/v1/flights/search"})',
        ),
      ),
    )
    .toEqual([expect.any(Number)]);
  // The stream, the delivery and the booking, on the instances that served them.
  await expect
    .poll(async () =>
      Object.values(
        await query(
          page,
          'sum by (instance) (wayfare_browser_streams_open{kind="/api/notifications/stream"})',
        ),
      ).reduce((sum, value) => sum + value, 0),
    )
    .toBeGreaterThan(0);
  await expect
    .poll(async () =>
      Object.values(
        await query(page, 'sum by (instance) (wayfare_notifications_delivered_total{path="live"})'),
      ).reduce((sum, value) => sum + value, 0),
    )
    .toBeGreaterThan(0);
  await expect
    .poll(async () =>
      Object.values(
        await query(page, 'sum by (instance) (wayfare_bookings_outcomes_total{code="VALIDATION_ERROR"})'),
      ).reduce((sum, value) => sum + value, 0),
    )
    .toBeGreaterThan(0);
  // The alert rules are loaded.
  const rules = (await (await page.request.get(`${PROMETHEUS}/api/v1/rules`)).json()) as {
    data: { groups: { rules: { name: string }[] }[] };
  };
  expect(rules.data.groups.flatMap((group) => group.rules.map((rule) => rule.name))).toContain(
    'WayfareBffErrorRatio',
  );
});
