import type { Locator, Page } from '@playwright/test';
import { expect, setProfileLocale, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';

/** The words of the demo panel, its toasts and the error notices a traveler reads in Spanish. */
const ES = {
  demoControls: 'Controles de demostración',
  showBehaviour: 'Mostrar un comportamiento',
  levers: [
    'Retrasar uno de mis vuelos',
    'Romper una conexión',
    'Caducar las ofertas de alojamiento',
    'Cambiar mi próxima comprobación de precio',
    'Rechazar mi próximo pago',
    'Hacer que mi próxima reserva choque',
    'Hacer fallar a los proveedores',
    'Alcanzar el límite de peticiones',
    'Anunciar una nueva versión',
  ],
  delayDone: 'Hecho: retrasar uno de mis vuelos.',
  openDelayedTrip: 'Abrir el viaje retrasado',
  newToasts: 'Avisos nuevos',
  delay: 'Retraso',
  viewTrip: 'Ver detalles del viaje',
  notifications: 'Avisos',
  pushTitle: 'Alertas en este dispositivo',
  pushExplanation: 'Recibe una notificación del sistema cuando un vuelo se retrase',
  tooManyRequests: 'Demasiadas peticiones en poco tiempo',
  retryingIn: /Nuevo intento en (\d+) s/,
  tryAgain: 'Reintentar',
  bookings: 'Reservas',
  status: 'Estado',
  pending: 'Pendiente',
  confirmed: 'Confirmada',
};

/** English words of these parts, none of which may be left on a Spanish screen. */
const ENGLISH =
  /\b(Demo controls|Show a behaviour|Delay one|Break a|Expire|Done|Open the delayed|Dismiss|View trip|Too many|Trying again|Try again|Please wait|Details|is delayed by|new departure|scheduled|arriving|trip)\b/;

async function secondsLeft(notice: Locator): Promise<number> {
  const text = (await notice.getByText(ES.retryingIn).textContent()) ?? '';
  return Number(ES.retryingIn.exec(text)?.[1]);
}

/** Reads the app in Spanish for the test (the journey's own traveler: nobody else reads their profile). */
async function inSpanish(page: Page, walk: () => Promise<void>): Promise<void> {
  await setProfileLocale(page, 'es-ES');
  await walk();
}

test.describe('notices in Spanish', () => {
  test('a traveler whose locale is es-ES reads the demo panel and a delay’s toast in Spanish, axe-clean', async ({
    signedInPage: page,
  }) => {
    await inSpanish(page, async () => {
      await page.goto('/trips');
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');

      const panel = page.getByRole('complementary', { name: ES.demoControls });
      const toggle = panel.getByRole('button', { name: ES.demoControls });
      await toggle.click();
      await expect(panel.getByRole('heading', { name: ES.showBehaviour })).toBeVisible();
      for (const lever of ES.levers) await expect(panel.getByRole('button', { name: lever })).toBeVisible();
      await expect(panel).not.toContainText(ENGLISH);
      await expectNoAxeViolations(page, 'demo panel in Spanish');

      await panel.getByRole('button', { name: ES.levers[0] }).click();
      await expect(panel.getByRole('status')).toHaveText(ES.delayDone);
      await expect(panel.getByRole('link', { name: ES.openDelayedTrip })).toBeVisible();

      // The app writes the delay itself, from the event's facts: every word of the toast is Spanish.
      const toasts = page.getByRole('region', { name: ES.newToasts });
      const toast = toasts.locator('.toast').first();
      await expect(toast).toBeVisible();
      // A toast goes by itself after a few seconds, never while the pointer is on it: the traveler points at
      // it to read it, so the checks below (axe alone can take seconds on a loaded machine) find it there.
      await toast.hover();
      await expect(toast).toContainText(ES.delay);
      await expect(toast.getByRole('link', { name: ES.viewTrip })).toHaveAttribute(
        'href',
        /^\/trips\/[^/]+\/segment\/[^/]+$/,
      );
      await expect(toast.getByRole('button', { name: /^Cerrar: / })).toBeVisible();
      await expect(toast.locator('.toast-title')).toHaveText(/^[A-Z0-9]+ \d+ se retrasa \d+/);
      await expect(toast).toContainText(/nueva salida \d{1,2}:\d{2} \(prevista \d{1,2}:\d{2}\)/);
      await expect(toast.locator('[lang="en"]')).toHaveCount(0);
      expect(await toast.textContent()).not.toMatch(ENGLISH);
      await expectNoAxeViolations(page, 'a delay toast in Spanish');

      await toast.getByRole('link', { name: ES.viewTrip }).click();
      await expect(page).toHaveURL(/\/trips\/[^/]+\/segment\/[^/]+$/);
      await expect(toasts.locator('.toast')).toHaveCount(0);
      // The trip is named in Spanish too, after where it goes.
      await expect(page.getByRole('link', { name: /^← Todo el viaje: Viaje a / })).toBeVisible();

      // Alerts from the browser, offered in the inbox, in Spanish too.
      await page.goto('/inbox');
      const delay = page.getByRole('list', { name: ES.notifications }).getByRole('article').first();
      await expect(delay.getByRole('heading', { level: 3 })).toContainText(/se retrasa \d+/);
      expect(await delay.textContent()).not.toMatch(ENGLISH);
      const push = page.getByRole('region', { name: ES.pushTitle });
      await expect(push).toContainText(ES.pushExplanation);
      await expect(push).not.toContainText(/\b(Alerts|Turn on|Turn off|browser|system notification)\b/);
      await expectNoAxeViolations(page, 'the inbox and its alerts in Spanish');
    });
  });

  test('a rate limit reads in Spanish: the notice, its countdown and its retry, axe-clean', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await inSpanish(page, async () => {
      await page.goto('/bookings');
      const list = page.getByRole('list', { name: ES.bookings });
      await expect(list.getByRole('article').first()).toBeVisible();
      // The traveler's own quota: journeys running beside this one keep theirs.
      const faults = `travelers/${traveler.id}/faults`;
      await admin.put(faults, { rateLimitMax: 1, rateLimitWindowSeconds: 20 });
      try {
        // Two more reads in the window, one after the other: the second is over a quota of one. The first
        // is answered before the second is asked for; a read started while it is on its way replaces it,
        // and the app cancels it, sometimes before it is sent.
        const status = page.getByRole('group', { name: ES.status });
        const answered = page.waitForResponse(
          (response) =>
            new URL(response.url()).pathname === '/api/bookings' &&
            new URL(response.url()).searchParams.get('status') === 'pending',
        );
        await status.getByRole('checkbox', { name: ES.pending }).click();
        await answered;
        await status.getByRole('checkbox', { name: ES.confirmed }).click();

        const notice = page.getByRole('alert').filter({ hasText: ES.tooManyRequests });
        await expect(notice).toBeVisible();
        await expect(notice.getByText(ES.retryingIn)).toBeVisible();
        await expect(notice.getByRole('button', { name: ES.tryAgain })).toBeDisabled();
        await expect(notice).not.toContainText(ENGLISH);
        const first = await secondsLeft(notice);
        await expect.poll(() => secondsLeft(notice)).toBeLessThan(first);
        await expectNoAxeViolations(page, 'a rate-limit notice in Spanish');
      } finally {
        await admin.put(faults, { rateLimitMax: null, rateLimitWindowSeconds: null });
      }
      await expect(list.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
    });
  });
});
