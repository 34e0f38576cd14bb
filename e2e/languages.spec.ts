import { expect, setProfileLocale, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { WORDS } from './support/words.ts';

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
    await expect(firstTrip).toContainText(/\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)/);
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
