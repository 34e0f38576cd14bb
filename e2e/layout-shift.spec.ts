import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { isoDateFromToday } from './support/dates.ts';
import { stayCards } from './support/stays.ts';
import { PHONE, STACK_WIDE } from './support/tags.ts';

// Every page here is a first load of its own: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

const HEADERS = { 'x-requested-with': 'wayfare' };
/** The most layout shift a page may add up while it loads: Core Web Vitals' "good". */
const GOOD_LAYOUT_SHIFT = 0.1;

interface Shift {
  value: number;
  /** What moved, from where to where: what a failure names. */
  sources: string[];
}

/**
 * Records the layout shifts of every page the browser loads from its first moment (buffered), as the
 * browser's Core Web Vitals count them: a shift right after the traveler's own input is theirs, not the
 * page's, and does not count.
 */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    interface LayoutShift extends PerformanceEntry {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    }
    const shifts: { value: number; sources: string[] }[] = [];
    const name = (node: Node | null) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')} "${(node.textContent ?? '').slice(0, 40)}"`
        : String(node?.nodeName);
    const box = (rect: DOMRectReadOnly) =>
      `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}x${Math.round(rect.height)}`;
    const keep = (entries: PerformanceEntryList) => {
      for (const entry of entries as LayoutShift[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          sources: entry.sources.map(
            (source) => `${name(source.node)} ${box(source.previousRect)} → ${box(source.currentRect)}`,
          ),
        });
      }
    };
    const observer = new PerformanceObserver((list) => keep(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    Object.assign(window, {
      layoutShifts: () => {
        keep(observer.takeRecords());
        return shifts;
      },
    });
  });
}

/** Expects the page, loaded, to have shifted its layout less than Core Web Vitals' "good" in all. */
async function expectStableLayout(page: Page, what: string): Promise<void> {
  // Read once the browser has drawn what is on the page now, and so reported any shift in it.
  const shifts = await page.evaluate(
    () =>
      new Promise<Shift[]>((resolve) =>
        requestAnimationFrame(() =>
          setTimeout(() => resolve((window as unknown as { layoutShifts: () => Shift[] }).layoutShifts())),
        ),
      ),
  );
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  const detail = shifts.map((shift) => `${shift.value.toFixed(4)}: ${shift.sources.join('; ')}`).join('\n');
  expect
    .soft(total, `${what} at ${page.viewportSize()?.width}px: layout shift ${total.toFixed(3)}\n${detail}`)
    .toBeLessThan(GOOD_LAYOUT_SHIFT);
}

test(
  'home, flight results and a trip keep their layout while they load',
  { tag: PHONE },
  async ({ signedInPage: page }) => {
    await recordLayoutShifts(page);
    const { items: trips } = (await (await page.request.get('/api/trips', { headers: HEADERS })).json()) as {
      items: { tripId: string }[];
    };

    await page.goto('/');
    await expect(page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('link')).toBeVisible();
    await expectStableLayout(page, 'home');

    await page.goto(`/flights?trip=one-way&leg=LHR.JFK.${isoDateFromToday(30)}&adults=1&cabin=economy`);
    await expect(
      page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first(),
    ).toBeVisible();
    await expectStableLayout(page, 'flight results');

    await page.goto(`/trips/${trips[0]!.tripId}`);
    await expect(page.getByRole('list', { name: 'Trip timeline' })).toBeVisible();
    await expectStableLayout(page, 'trip');
  },
);

// The hotels stream in one by one as they do for a traveler (the journeys' stack sends a stream's events
// at once): every answer and streamed event of the travel API is held back a little, for every traveler.
test(
  'stay results keep their layout while the hotels and their prices stream in, on a phone and a desktop',
  { tag: STACK_WIDE },
  async ({ signedInPage: desktop, browser, signIn, admin }) => {
    test.slow();
    const phoneContext = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
    const phone = await phoneContext.newPage();
    await signIn({ page: phone, returnTo: '/profile' });
    const places = (await (
      await desktop.request.get('/api/stays/destinations?query=lisbon', { headers: HEADERS })
    ).json()) as {
      items: {
        type: string;
        cityId?: string;
        name: string;
        countryCode: string;
        latitude: number;
        longitude: number;
      }[];
    };
    const lisbon = places.items.find((item) => item.type === 'city');
    expect(lisbon?.cityId, 'Lisbon is a stay destination').toBeDefined();
    const search = new URLSearchParams({
      city: lisbon!.cityId!,
      name: lisbon!.name,
      country: lisbon!.countryCode,
      lat: String(lisbon!.latitude),
      lng: String(lisbon!.longitude),
      checkIn: isoDateFromToday(30),
      checkOut: isoDateFromToday(32),
      rooms: '1',
      purpose: 'business',
    });
    await admin.put('faults', { latencyMs: 100 });

    for (const page of [phone, desktop]) {
      await recordLayoutShifts(page);
      await page.goto(`/stays?${search.toString()}`);
      await expect(stayCards(page).first()).toBeVisible();
      await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false', {
        timeout: 30_000,
      });
      await expectStableLayout(page, 'stay results');
    }
    await phoneContext.close();
  },
);
