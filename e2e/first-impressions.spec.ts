import type { Locator } from '@playwright/test';
import { expect, setProfileLocale, test } from './fixtures.ts';
import { raiseDelay } from './support/notifications.ts';

/** The texts of the main navigation's links (and their parts) that are not wholly on the screen. */
function outOfView(nav: Locator): Promise<string[]> {
  return nav.evaluate((element) =>
    [...element.querySelectorAll('a, a *')]
      .map((node) => ({ text: node.textContent?.trim() ?? '', box: node.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > window.innerWidth))
      .map(({ text }) => text),
  );
}

test('at 320 px every link of the header and the inbox count are in view', async ({
  signedInPage: page,
  admin,
  traveler,
}) => {
  await raiseDelay(admin, traveler.id, 'Narrow');
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: /main/i });
  const inbox = nav.getByRole('link', { name: /Inbox/ });
  await expect(inbox).toHaveAccessibleName(/unread/);
  expect(await outOfView(nav)).toEqual([]);
});

test('in Spanish, whose words are longer, every link of the header is in view at every phone width', async ({
  signedInPage: page,
  admin,
  traveler,
}) => {
  await raiseDelay(admin, traveler.id, 'Narrow in Spanish');
  expect(await setProfileLocale(page, 'es-ES')).toBe(true);
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Avisos' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: /Avisos/ })).toHaveAccessibleName(/sin leer/);
  for (const width of [320, 360, 375, 390, 414]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await outOfView(nav), `${width} px`).toEqual([]);
  }
});

test('at desktop width the profile shows the whole email and language', async ({ page, signIn }) => {
  await signIn({ returnTo: '/profile' });
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(/@/);
  expect(await email.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(
    true,
  );
  const language = page.getByLabel('Language and region');
  const fits = await language.evaluate((select: HTMLSelectElement) => {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(select).font;
    probe.style.whiteSpace = 'nowrap';
    probe.style.position = 'absolute';
    probe.textContent = [...select.options].reduce(
      (longest, option) => (option.text.length > longest.length ? option.text : longest),
      '',
    );
    document.body.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    return needed + 40 <= select.clientWidth;
  });
  expect(fits).toBe(true);
});

test('the selected sort option shows a focus ring that differs from its fill', async ({ page, signIn }) => {
  await signIn({
    returnTo:
      '/flights?trip=one-way&leg=LHR.JFK.' +
      new Date(Date.now() + 30 * 864e5).toISOString().slice(0, 10) +
      '&adults=1&cabin=economy',
  });
  const best = page.getByRole('radio', { name: 'Best' });
  await expect(best).toBeChecked();
  await best.focus();
  await page.keyboard.press('ArrowRight');
  const cheapest = page.getByRole('radio', { name: 'Cheapest' });
  await expect(cheapest).toBeFocused();
  await expect(cheapest).toBeChecked();
  const { ring, fill } = await cheapest.evaluate((input) => {
    const label = input.nextElementSibling as HTMLElement;
    const style = getComputedStyle(label);
    return { ring: style.outlineStyle === 'none' ? 'none' : style.outlineColor, fill: style.backgroundColor };
  });
  expect(ring).not.toBe('none');
  expect(ring).not.toBe(fill);
});

test('what scrolls into view stops below the sticky header, on a phone and a desktop', async ({
  signedInPage: page,
}) => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto('/profile');
    const save = page.getByRole('button', { name: 'Save profile' });
    await expect(save).toBeVisible();
    // Room to scroll: the page is made taller than the screen below the button.
    await page.evaluate(() => {
      document.body.style.paddingBottom = '200vh';
    });
    await save.evaluate((button) => button.scrollIntoView({ block: 'start' }));
    const [headerBottom, buttonTop] = await Promise.all([
      page
        .locator('header')
        .first()
        .evaluate((header) => header.getBoundingClientRect().bottom),
      save.evaluate((button) => button.getBoundingClientRect().top),
    ]);
    expect(buttonTop, `${viewport.width} px`).toBeGreaterThanOrEqual(headerBottom);
  }
});
