import type { Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { fillStaySearch, stayCards } from './support/stays.ts';
import { STACK_WIDE } from './support/tags.ts';

// Every travel API answer and streamed event is held back, so the search takes seconds, as it does
// with a real provider, and a tab held up behind it would wait for a whole hotel's pricing at least.
const SLOW_PROVIDER = { latencyMs: 300 };

/**
 * Longest GET /api/session of the other tab may take. Waiting for a connection means waiting for a whole
 * hotel's rates at least (several events, each held back by the slow provider).
 */
const MAX_CONNECTION_WAIT_MS = 500;

const isStaysStream = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/stays/');

test(
  'a stay search in one tab never holds up another tab of the same browser',
  { tag: STACK_WIDE },
  async ({ signedInPage: searchTab, context, admin }) => {
    // The stays streams this browser holds open at once.
    const open = new Set<Request>();
    let mostOpen = 0;
    context.on('request', (request) => {
      if (!isStaysStream(request)) return;
      open.add(request);
      mostOpen = Math.max(mostOpen, open.size);
    });
    context.on('requestfinished', (request) => open.delete(request));
    context.on('requestfailed', (request) => open.delete(request));

    const search = await fillStaySearch(searchTab, { city: 'Paris', checkInInDays: 38, nights: 2 });
    const otherTab = await context.newPage();
    await otherTab.goto('/trips');
    await expect(otherTab.getByRole('heading', { level: 1 })).toBeVisible();
    // How long each API request of the other tab waited in the browser before it was sent.
    const waits: { url: string; waitedMs: number }[] = [];
    otherTab.on('requestfinished', (request) => {
      if (!new URL(request.url()).pathname.startsWith('/api/')) return;
      waits.push({ url: request.url(), waitedMs: Math.round(request.timing().requestStart) });
    });

    await admin.put('faults', SLOW_PROVIDER);
    await search.click();
    const results = searchTab.getByRole('list', { name: 'Stays' });
    await expect(stayCards(searchTab).first()).toBeVisible();
    await expect(results).toHaveAttribute('aria-busy', 'true');

    // Meanwhile the traveler moves around in the other tab, and its API calls answer.
    const sessionCalls: number[] = [];
    const nav = otherTab.getByRole('navigation', { name: 'Main' });
    for (const page of ['Bookings', 'Flights', 'Trips']) {
      await nav.getByRole('link', { name: page, exact: true }).click();
      await expect(otherTab.getByRole('heading', { level: 1 })).toBeVisible();
      // The BFF answers this one itself: only a wait for a free connection could make it slow.
      const session = await otherTab.evaluate(async () => {
        const started = performance.now();
        const response = await fetch('/api/session');
        await response.text();
        return { status: response.status, tookMs: Math.round(performance.now() - started) };
      });
      expect(session.status).toBe(200);
      sessionCalls.push(session.tookMs);
    }
    const otherTabDoneAt = Date.now();

    await expect(results).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
    const searchDoneAt = Date.now();
    expect(otherTabDoneAt, 'the other tab finished while the search was still running').toBeLessThan(
      searchDoneAt,
    );
    await expect(stayCards(searchTab).filter({ hasText: 'per night' }).first()).toBeVisible();

    // No call of the other tab waited for a connection: the search held one stream, not five.
    for (const tookMs of sessionCalls)
      expect(tookMs, `GET /api/session took ${tookMs} ms`).toBeLessThan(MAX_CONNECTION_WAIT_MS);
    expect(mostOpen, 'stays streams open at once in this browser').toBe(1);
  },
);
