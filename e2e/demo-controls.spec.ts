import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { isoDateFromToday } from './support/dates.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { rateCards, searchStays, stayCards } from './support/stays.ts';
import { PHONE } from './support/tags.ts';

/**
 * Text and controls of the page that the demo controls are drawn over (none, ever): a point of an
 * element (its centre or a corner) where the topmost thing on screen belongs to the demo controls. What
 * the sticky header covers when the page scrolls is the header's, not the demo controls'.
 */
function coveredByDemoControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector('aside[aria-label="Demo controls"]');
    if (!panel) return ['no demo controls on the page'];
    const covered: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('main *, header *')) {
      if (panel.contains(element)) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      const interactive = element.matches('a, button, input, select, textarea, [role="button"], [tabindex]');
      const hasText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
      );
      if (!interactive && !hasText) continue;
      const inset = Math.min(2, rect.width / 2, rect.height / 2);
      const points: [number, number][] = [
        [rect.left + rect.width / 2, rect.top + rect.height / 2],
        [rect.left + inset, rect.top + inset],
        [rect.right - inset, rect.top + inset],
        [rect.left + inset, rect.bottom - inset],
        [rect.right - inset, rect.bottom - inset],
      ];
      const drawnOver = points.some(([x, y]) => {
        const top = document.elementFromPoint(x, y);
        return top !== null && panel.contains(top) && !element.contains(top);
      });
      if (drawnOver) covered.push(`${element.tagName} "${(element.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return covered;
  });
}

for (const path of ['/', '/trips', '/flights', '/stays', '/bookings', '/inbox', '/profile']) {
  test(`the demo controls cover nothing on ${path}`, { tag: PHONE }, async ({ page, signIn }) => {
    await signIn({ returnTo: path });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Demo controls' })).toBeVisible();
    expect(await coveredByDemoControls(page), path).toEqual([]);
  });
}

test(
  'the demo controls cover nothing when open, and close on Escape',
  { tag: PHONE },
  async ({ page, signIn }) => {
    await signIn({ returnTo: '/profile' });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const toggle = page.getByRole('button', { name: 'Demo controls' });
    await toggle.click();
    await expect(page.getByRole('heading', { name: 'Show a behaviour' })).toBeVisible();
    expect(await coveredByDemoControls(page), '/profile with the panel open').toEqual([]);
    await page.getByRole('button', { name: 'Break a connection' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Show a behaviour' })).toBeHidden();
    await expect(toggle).toBeFocused();
  },
);

test(
  'the demo controls cover nothing on the pages a search, a trip and a booking lead to',
  { tag: PHONE },
  async ({ signedInPage: page }) => {
    const expectNothingCovered = async (what: string) => {
      await expect(page.getByRole('button', { name: 'Demo controls' })).toBeVisible();
      expect(await coveredByDemoControls(page), what).toEqual([]);
    };

    await page.goto('/trips');
    await demoControlsInPlace(page);
    await page.getByRole('region', { name: 'Upcoming' }).getByRole('article').first().click();
    await expect(page.getByRole('list', { name: 'Timeline' })).toBeVisible();
    await expectNothingCovered('a trip page');

    await page.goto(`/flights?trip=one-way&leg=LHR.CDG.${isoDateFromToday(40)}&adults=1&cabin=economy`);
    await demoControlsInPlace(page);
    const offer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
    await offer.getByText('Details and booking').click();
    await expect(offer.getByText('Baggage per passenger')).toBeVisible();
    await expectNothingCovered('flight results with an offer open');
    await offer.getByRole('button', { name: /^Book/ }).click();
    await expect(page.getByRole('button', { name: /^Book and pay/ })).toBeVisible();
    await expectNothingCovered('checkout');

    await searchStays(page, { city: 'Lisbon', checkInInDays: 40, nights: 2 });
    await expectNothingCovered('stay results');
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();
    await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
    await expect(rateCards(page).first()).toBeVisible();
    await expectNothingCovered('a hotel page');
  },
);
