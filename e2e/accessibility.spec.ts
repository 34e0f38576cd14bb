import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import type { AdminClient } from './support/admin-client.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { isoDateFromToday } from './support/dates.ts';
import { inboxCard, raiseDelay, simulateDelay } from './support/notifications.ts';
import { expectInApp, expectOnIdentityPlatform } from './support/page-location.ts';
import { rateCards, searchStays, stayCards } from './support/stays.ts';
import type { TestTraveler } from './support/test-travelers.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

async function settled(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** What a page needs to be checked in: the page itself, and the stand-in's admin API with the traveler. */
interface PageTools {
  admin: AdminClient;
  traveler: TestTraveler;
}

/**
 * A page to check, each in a test of its own: `open` brings a browser to it, settled, in the state to
 * check (signed-in pages start from the home page a traveler was just signed in to).
 */
interface PageToCheck {
  name: string;
  open: (page: Page, tools: PageTools) => Promise<void>;
}

const SIGNED_OUT_PAGES: PageToCheck[] = [
  {
    name: 'start page (signed out)',
    open: async (page) => {
      await page.goto('/');
      await settled(page, 'Travel that keeps up with you');
    },
  },
  {
    name: 'identity sign-in page',
    open: async (page) => {
      await page.goto('/auth/login?returnTo=/');
      await expectOnIdentityPlatform(page);
      await settled(page, 'Sign in');
    },
  },
];

const SIGNED_IN_PAGES: PageToCheck[] = [
  {
    name: 'home (signed in)',
    open: async (page) => {
      await page.goto('/');
      await settled(page, /Welcome back/);
    },
  },
  {
    name: 'flights with results',
    open: async (page) => {
      await page.goto(`/flights?trip=one-way&leg=LHR.JFK.${isoDateFromToday(30)}&adults=1&cabin=economy`);
      await expect(
        page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first(),
      ).toBeVisible();
    },
  },
  {
    name: 'stays with results',
    open: async (page) => {
      await searchStays(page, { city: 'Paris', checkInInDays: 30, nights: 2 });
    },
  },
  {
    name: 'hotel rates',
    open: async (page) => {
      await searchStays(page, { city: 'Paris', checkInInDays: 30, nights: 2 });
      await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();
      await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
      await expect(rateCards(page).first()).toBeVisible();
    },
  },
  {
    name: 'bookings',
    open: async (page) => {
      await page.goto('/bookings');
      await expect(page.getByRole('list', { name: 'Bookings' }).getByRole('article').first()).toBeVisible();
    },
  },
  {
    name: 'inbox with a toast',
    open: async (page, { admin, traveler }) => {
      await page.goto('/inbox');
      await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
      const raised = await raiseDelay(admin, traveler.id);
      await expect(inboxCard(page, raised.title)).toHaveCount(1);
    },
  },
  {
    name: 'trip segment',
    open: async (page, { admin, traveler }) => {
      const { notification } = await simulateDelay(admin, traveler.id, 20);
      await page.goto(`/trips/${notification.tripId}/segment/${notification.segmentId}`);
      await expect(page.getByRole('region', { name: 'Schedule' })).toBeVisible();
    },
  },
  {
    name: 'profile',
    open: async (page) => {
      await page.goto('/profile');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    },
  },
  {
    name: 'not found',
    open: async (page) => {
      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    },
  },
];

test.describe('accessibility', () => {
  for (const { name, open } of SIGNED_OUT_PAGES) {
    test(`${name} has no axe violations`, async ({ page, admin, traveler }) => {
      await open(page, { admin, traveler });
      await expectNoAxeViolations(page, name);
    });
  }

  for (const { name, open } of SIGNED_IN_PAGES) {
    test(`${name} has no axe violations`, async ({ signedInPage: page, admin, traveler }) => {
      await open(page, { admin, traveler });
      await expectNoAxeViolations(page, name);
    });
  }

  test('signing in, searching flights and reading the inbox work with the keyboard alone', async ({
    page,
    traveler,
    admin,
  }) => {
    await page.goto('/bookings');
    await expectOnIdentityPlatform(page);
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(traveler.email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type(traveler.password);
    await page.keyboard.press('Enter');
    await expectInApp(page, '/bookings');

    // To the flight search through the main navigation.
    const flightsLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flights' });
    await tabUntilFocused(page, flightsLink);
    await page.keyboard.press('Enter');
    await settled(page, 'Flights');
    const form = page.getByRole('form', { name: 'Search flights' });
    const from = form.getByRole('combobox', { name: 'From' }).first();
    await expect(from).toHaveValue(/[A-Z]{3}/);
    // The origin is the traveler's home airport, which the travel API gives each test traveler: fly
    // somewhere else (a destination equal to the origin is refused, as it should be).
    const destination = /\bJFK\b/.test(await from.inputValue()) ? 'LHR' : 'JFK';

    await tabUntilFocused(page, form.getByRole('radio', { name: 'Return' }));
    await page.keyboard.press('ArrowLeft');
    await expect(form.getByRole('radio', { name: 'One-way' })).toBeChecked();
    await tabUntilFocused(page, form.getByRole('combobox', { name: 'To' }));
    await page.keyboard.type(destination);
    // The options can still be those of the code's first letters while the whole code waits for its
    // search: chosen once it has answered.
    await expect(form.getByRole('combobox', { name: 'To' })).not.toHaveAttribute('aria-busy', 'true');
    await expect(
      page.getByRole('option', { name: new RegExp(`\\b${destination}\\b`) }).first(),
    ).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(form.getByRole('combobox', { name: 'To' })).toHaveValue(new RegExp(destination));
    await tabUntilFocused(page, form.getByRole('button', { name: 'Search flights' }));
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first(),
    ).toBeVisible();

    // The inbox: a new notification, marked read from the keyboard.
    const raised = await raiseDelay(admin, traveler.id);
    const bell = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
    await tabUntilFocused(page, bell, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await settled(page, 'Inbox');
    const markRead = inboxCard(page, raised.title).getByRole('button', { name: /Mark as read/ });
    await tabUntilFocused(page, markRead);
    await page.keyboard.press('Enter');
    await expect(markRead).toHaveCount(0);
  });
});

/** Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard user would; at most 80 presses. */
async function tabUntilFocused(
  page: Page,
  target: ReturnType<Page['getByRole']>,
  key = 'Tab',
): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}
