import type { Locator, Page } from '@playwright/test';
import { expect, setProfileLocale, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { isoDateFromToday } from './support/dates.ts';
import { SPANISH_DAY_MONTH, WORDS } from './support/words.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

test.describe('one language at a time', () => {
  test('a traveler whose locale is es-ES reads the app in Spanish, axe-clean, and switches to English in the profile', async ({
    signedInPage: page,
  }) => {
    await setProfileLocale(page, 'es-ES');
    await page.goto('/trips');
    const es = WORDS.es;
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1, name: es.trips })).toBeVisible();
    const nav = page.getByRole('navigation', { name: es.main });
    await expect(nav.getByRole('link', { name: es.trips })).toBeVisible();
    const upcoming = page.getByRole('region', { name: es.upcoming });
    const firstTrip = upcoming.getByRole('article').first();
    // Dates in Spanish beside Spanish words: "1 dic 2026", never "Dec".
    await expect(firstTrip).toContainText(SPANISH_DAY_MONTH);
    await expectNoAxeViolations(page, 'trips in Spanish');

    await firstTrip.getByRole('link').click();
    const timeline = page.getByRole('list', { name: es.timeline });
    await expect(timeline).toBeVisible();
    await expect(timeline).not.toContainText(/\b(Departure|Arrival|Layover|Confirmation)\b/);
    await expectNoAxeViolations(page, 'trip timeline in Spanish');

    await page.goto('/inbox');
    await expect(page.getByRole('heading', { level: 1, name: 'Avisos' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /sin leer|Todo leído/ })).toBeVisible();
    await expectNoAxeViolations(page, 'inbox in Spanish');

    // The switch is the profile's language and region: saved, the whole app is in English.
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1, name: 'Perfil' })).toBeVisible();
    await expectNoAxeViolations(page, 'profile in Spanish');
    await page.getByLabel('Idioma y región').selectOption('en-GB');
    await page.getByRole('button', { name: 'Guardar perfil' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(
      page.getByRole('navigation', { name: WORDS.en.main }).getByRole('link', { name: WORDS.en.trips }),
    ).toBeVisible();
    await page.goto('/trips');
    await expect(page.getByRole('heading', { level: 1, name: WORDS.en.trips })).toBeVisible();
    await expectNoAxeViolations(page, 'trips in English');
  });
});

test('a traveler whose locale is es-ES sees the first screen after sign-in in Spanish, never English first', async ({
  signedInPage: page,
}) => {
  await setProfileLocale(page, 'es-ES');
  // A new browser (nothing remembered): every text painted on the way is recorded, however briefly shown.
  await page.addInitScript(() => {
    const painted: string[] = [];
    (window as unknown as { __painted: string[] }).__painted = painted;
    new MutationObserver(() => painted.push(document.body?.textContent ?? '')).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hola de nuevo');
  // Home's main link, the next trip, is named in Spanish after where it goes.
  await expect(page.getByRole('link', { name: /^Viaje a / })).toBeVisible();
  const painted = await page.evaluate(() => (window as unknown as { __painted: string[] }).__painted);
  expect(painted.filter((text) => /Welcome back|Your next trip/.test(text))).toEqual([]);
});

test('a traveler whose locale is es-ES finds London by its Spanish name, the London airports first', async ({
  signedInPage: page,
}) => {
  await setProfileLocale(page, 'es-ES');
  await page.goto('/flights');
  const origin = page.getByRole('combobox', { name: 'Origen' });
  await origin.fill('Londres');
  const first = page.getByRole('listbox').getByRole('option').first();
  await expect(first).toContainText('Londres LHR');
  await expect(first).toContainText('Reino Unido');
});

/**
 * Words of the interface (labels, buttons, headings, notes) and of what the app writes from travel data
 * (trip and segment names, notification texts) that an English screen shows and a Spanish one never does.
 * Names are not the interface: hotel, airline and airport names, and the travel API's words where the app
 * has no facts to write them from (marked lang="en"), are left as they come. Words Spanish shares ("Business" for the
 * cabin, "Personal", "Total") are not in the list.
 */
const ENGLISH_INTERFACE_WORDS =
  /\b(Search|Flights?|Stays|Bookings?|Trips?|Inbox|Profile|Sign (in|out)|Adults?|Children|Filters?|Sort|Details|Loading|Results?|Upcoming|Unread|Mark (all )?as read|Edit|Departure|Arrival|Guests?|Save|Nonstop|Offers?|Rates|per night|Last updated|View|Show|Next|Previous|Book|Check-in|Check-out|Layover|Confirmation|On time|Delayed|Cancelled|Gate|Seat|Demo controls|Skip to content|Turn on|Language|Currency|Cabin|Economy|One-way|Return|Multi-city|Destination|Nights?|Date|From|To|Where|When|Any|at risk|Pending|Confirmed|All|Past|Help|Try again|Go to|trip|Rental car|is delayed by|gate changed)\b/;

/** Every piece of interface English on the page: visible text and the names assistive technology reads. */
function englishOnScreen(page: Page): Promise<string[]> {
  return page.evaluate((source) => {
    const english = new RegExp(source);
    const found: string[] = [];
    const inEnglishOnPurpose = (element: Element) =>
      element.closest('[lang]')?.getAttribute('lang')?.startsWith('en');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (!element || text === '' || inEnglishOnPurpose(element)) continue;
      if (element.closest('script, style, [hidden], [aria-hidden="true"]')) continue;
      if (english.test(text)) found.push(`text "${text.slice(0, 60)}"`);
    }
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (inEnglishOnPurpose(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value && english.test(value)) found.push(`${name} "${value.slice(0, 60)}"`);
      }
    }
    return found;
  }, ENGLISH_INTERFACE_WORDS.source);
}

/**
 * Every screen, each in a test of its own, with what shows it has loaded its data, so the words read are
 * the whole screen's. `path` may ask the BFF for what the screen is about (the traveler's first trip).
 */
interface Screen {
  name: string;
  path: string | ((page: Page) => Promise<string>);
  loaded?: (page: Page) => Locator;
  /** What else the screen must read in Spanish, checked after the sweep (it may open the screen again). */
  reads?: (page: Page) => Promise<void>;
}

/**
 * The bookings list names a booking's cities as Spanish does ("Londres → Atenas"): one of the traveler's
 * flights or trains through a city whose Spanish name differs, shown on its own day.
 */
async function bookingCitiesInSpanish(page: Page): Promise<void> {
  const headers = { 'x-requested-with': 'wayfare' };
  const { items } = (await (await page.request.get('/api/bookings?limit=100', { headers })).json()) as {
    items: { startDate: string; route?: { city: string; cityNames?: Record<string, string> }[] }[];
  };
  const named = items.flatMap(({ startDate, route = [] }) =>
    route.flatMap(({ city, cityNames }) =>
      cityNames?.es && !cityNames.es.includes(city) ? [{ startDate, city, es: cityNames.es }] : [],
    ),
  )[0];
  expect(named, 'a booking goes through a city Spanish names otherwise').toBeDefined();
  await page.goto(`/bookings?from=${named?.startDate}&to=${named?.startDate}`);
  const booking = page
    .getByRole('article')
    .filter({ hasText: named?.es ?? '' })
    .first();
  await expect(booking).toBeVisible();
  await expect(booking).not.toContainText(new RegExp(`\\b${named?.city}\\b`));
}

const SCREENS: Screen[] = [
  { name: 'home', path: '/' },
  {
    name: 'trips',
    path: '/trips',
    loaded: (page) => page.getByRole('region', { name: WORDS.es.upcoming }).getByRole('article').first(),
  },
  {
    name: 'a trip',
    path: async (page) => {
      const headers = { 'x-requested-with': 'wayfare' };
      const { items } = (await (await page.request.get('/api/trips', { headers })).json()) as {
        items: { tripId: string }[];
      };
      expect(items[0], 'the traveler has a trip').toBeDefined();
      return `/trips/${items[0]?.tripId}`;
    },
    loaded: (page) => page.getByRole('list', { name: WORDS.es.timeline }),
  },
  { name: 'flights', path: '/flights' },
  {
    name: 'flights with results',
    path: `/flights?trip=one-way&leg=LHR.CDG.${isoDateFromToday(30)}&adults=1&cabin=economy`,
    loaded: (page) => page.getByRole('article').first(),
  },
  { name: 'stays', path: '/stays' },
  {
    name: 'bookings',
    path: '/bookings',
    loaded: (page) => page.getByText(WORDS.es.bookingsCount),
    reads: bookingCitiesInSpanish,
  },
  {
    name: 'inbox',
    path: '/inbox',
    loaded: (page) => page.getByRole('heading', { level: 2, name: /sin leer|Todo leído/ }),
  },
  { name: 'profile', path: '/profile', loaded: (page) => page.getByRole('combobox').first() },
  { name: 'not found', path: '/a-page-that-is-not-here' },
];

test.describe('every screen reads in Spanish for a traveler whose locale is es-ES: no interface English, axe-clean', () => {
  for (const { name, path, loaded, reads } of SCREENS) {
    test(name, async ({ signedInPage: page }) => {
      await setProfileLocale(page, 'es-ES');
      const screen = typeof path === 'string' ? path : await path(page);
      await page.goto(screen);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (loaded) await expect(loaded(page)).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await englishOnScreen(page), screen).toEqual([]);
      await expectNoAxeViolations(page, `${screen} in Spanish`);
      await reads?.(page);
    });
  }
});
