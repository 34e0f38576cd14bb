import type { Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { fillStaySearch, stayCards } from './support/stays.ts';
import { STACK_WIDE } from './support/tags.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

// Every travel API answer and streamed event is held back, so the search takes seconds, as it does
// with a real provider (about ten for Paris's eight hotels, long after its first card shows even when a
// busy machine is slow to draw it), and a tab held up behind it would wait for a whole hotel's pricing
// at least. How long the other tab's calls take beside a search is measured by `npm run bench -- stays`.
const SLOW_PROVIDER = { latencyMs: 1000 };

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

    await admin.put('faults', SLOW_PROVIDER);
    await search.click();
    const results = searchTab.getByRole('list', { name: 'Stays' });
    await expect(stayCards(searchTab).first()).toBeVisible();
    await expect(results).toHaveAttribute('aria-busy', 'true');

    // The other tab's session call is answered while the search still streams: it does not wait for the
    // search to give a connection back. The BFF answers this one itself, so only a wait for a free
    // connection could hold it up.
    const sessionStatus = () =>
      otherTab.evaluate(async () => {
        const response = await fetch('/api/session');
        await response.text();
        return response.status;
      });
    expect(open.size, 'the search stream is open').toBe(1);
    expect(await sessionStatus()).toBe(200);
    expect(open.size, 'the search stream is still open once the other tab’s call was answered').toBe(1);

    // Meanwhile the traveler moves around in the other tab, and its pages and API calls answer.
    const nav = otherTab.getByRole('navigation', { name: 'Main' });
    for (const page of ['Bookings', 'Flights', 'Trips']) {
      await nav.getByRole('link', { name: page, exact: true }).click();
      await expect(otherTab.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await sessionStatus(), page).toBe(200);
    }

    await expect(results).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
    await expect(stayCards(searchTab).filter({ hasText: 'per night' }).first()).toBeVisible();
    // The search held one stream, not one per hotel being priced.
    expect(mostOpen, 'stays streams open at once in this browser').toBe(1);
  },
);
