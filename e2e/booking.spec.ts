import type { Locator, Page } from '@playwright/test';
import { expect, setProfileLocale, test } from './fixtures.ts';
import type { AdminClient } from './support/admin-client.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { fillDate, isoDateFromToday } from './support/dates.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { unreadOnBell, unreadOnServer } from './support/notifications.ts';
import { rateCards, searchStays, stayCards } from './support/stays.ts';
import type { TestTraveler } from './support/test-travelers.ts';
import { PHONE } from './support/tags.ts';
import { SPANISH_DAY_MONTH, SPANISH_WEEKDAY_DATE } from './support/words.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

/**
 * Booking journeys: from a flight offer or a room rate through its details, the price check and the
 * payment to the confirmation, the bookings list, the trip and the inbox; the outcomes the levers of the
 * travel API stand-in provoke for the journey's own traveler only (price change, expired offer, declined
 * card, conflict); one booking for a double submit and for a connection dropped mid-submit; cancelling.
 * Each journey books as a traveler of its own (e2e/README.md), so no other journey's booking is there.
 */

const flightsUrl = (days: number) =>
  `/flights?trip=one-way&leg=ZRH.LHR.${isoDateFromToday(days)}&adults=1&cabin=economy`;

async function openFirstOffer(page: Page, days: number): Promise<void> {
  await page.goto(flightsUrl(days));
  await demoControlsInPlace(page);
  const offer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
  await offer.getByText('Details and booking').press('Enter');
  await expect(offer.getByText('Baggage per passenger')).toBeVisible();
  await offer.getByRole('button', { name: /^Book/ }).click();
  await expect(page).toHaveURL(/\/checkout\//);
}

function payButton(page: Page) {
  return page.getByRole('button', { name: /^Book and pay/ });
}

/** Book and pay from the keyboard, once the form allows it (the cards on file and the price are in). */
async function payWithKeyboard(page: Page): Promise<void> {
  await expect(payButton(page)).toBeEnabled();
  await payButton(page).press('Enter');
}

async function expectConfirmed(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  const reference = (await page.locator('.notice-success strong.mono').textContent()) ?? '';
  expect(reference).toMatch(/^[A-Z2-9]{6}$/);
  return reference;
}

async function bookingsOn(page: Page, days: number): Promise<{ reference: string; status: string }[]> {
  const date = isoDateFromToday(days);
  const response = await page.request.get(`/api/bookings?from=${date}&to=${date}`, {
    headers: { 'x-requested-with': 'wayfare' },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { items: { reference: string; status: string }[] }).items;
}

/**
 * How many cards on file checkout offers, counted once they have loaded (the first is chosen for the
 * traveler then); counted earlier, the list is still on its way and the count is 0.
 */
async function cardsOnFile(cards: Locator): Promise<number> {
  await expect(cards.first()).toBeChecked();
  return cards.count();
}

/** Words of checkout and the booking page as a Spanish (es-ES) traveler reads them. */
const ES = {
  bookFlight: 'Reservar este vuelo',
  yourChoice: 'Tu elección',
  priceChanged: 'El precio ha cambiado',
  acceptPrice: 'Reservar al nuevo precio',
  /** A price in Spanish: decimal comma, the currency after it ("1.234,56 €", "133,18 CAD"). */
  bookAndPay: /^Reservar y pagar \d{1,3}(\.\d{3})*(,\d{2})?\s\S+$/,
  traveler: 'Viajero',
  fullName: 'Nombre completo',
  paymentMethods: 'Método de pago guardado',
  declined: 'Pago rechazado: elige otro método de pago',
  confirmed: 'Reserva confirmada',
  reference: /Tu localizador es [A-Z2-9]{6}\. Tienes la confirmación en tus avisos\./,
  whatYouBooked: 'Lo que has reservado',
  cancel: 'Cancelar reserva',
  title: 'Te damos la bienvenida',
  startHeading: 'Viajes que van a tu ritmo',
  signIn: 'Iniciar sesión',
};

/** Words of the English interface that must not be left on a Spanish screen. */
const ENGLISH_WORDS =
  /\b(Book|Booking|Price|Traveler:|Payment|Paid with|Full name|Phone|ending|expires|travel|Checking|Fare conditions|Baggage|cabin bags?|Refundable|Non-refundable|Changes|Was|now|Your|confirmed|Cancel|Sign in|Search|Welcome|What you)(?!\w)/;

const arm = (admin: AdminClient, traveler: TestTraveler, lever: string) =>
  admin.post('booking-levers', { travelerId: traveler.id, lever });

test.describe('booking a flight', () => {
  test(
    'books an offer, shows it in bookings, its trip and the inbox, and cancels it by its rules',
    { tag: PHONE },
    async ({ signedInPage: page }) => {
      const day = 200;
      await openFirstOffer(page, day);
      await expect(page.getByText('price checked just now')).toBeVisible();
      await expect(page.getByLabel('Full name')).not.toHaveValue('');
      await expectNoAxeViolations(page, 'checkout');
      // Read from the service: the inbox link may not have loaded its count yet.
      const unreadBefore = await unreadOnServer(page);
      await payButton(page).click();
      const reference = await expectConfirmed(page);
      // The confirmation arrives live on the notification stream: the inbox count rises without a reload.
      await expect.poll(() => unreadOnBell(page)).toBe(unreadBefore + 1);
      await expectNoAxeViolations(page, 'booking confirmation');

      expect(await bookingsOn(page, day)).toEqual([
        expect.objectContaining({ reference, status: 'confirmed' }),
      ]);
      await page.getByRole('link', { name: 'Open the trip' }).click();
      await expect(page.getByText('Zurich → London').first()).toBeVisible();
      await page.goto('/inbox');
      await expect(page.getByText(/Booking confirmed: Zurich → London/).first()).toBeVisible();

      await page.goto(`/bookings?from=${isoDateFromToday(day)}&to=${isoDateFromToday(day)}`);
      await demoControlsInPlace(page);
      await page.getByRole('link', { name: 'Zurich → London' }).first().click();
      await expect(page.getByText(/Cancelling now: refund/)).toBeVisible();
      // From the keyboard: focus moves to the question, then to the outcome that replaces the buttons.
      await page.getByRole('button', { name: 'Cancel booking' }).press('Enter');
      await expect(page.getByRole('group', { name: 'Confirm the cancellation' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Yes, cancel this booking' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Cancelled' })).toBeVisible();
      await expect(page.getByText(/Refund .*, fee /)).toBeFocused();
      expect(await bookingsOn(page, day)).toEqual([
        expect.objectContaining({ reference, status: 'cancelled' }),
      ]);
    },
  );

  test('two flights to one city on adjoining days make one trip, listed under Cancelled once both are cancelled', async ({
    signedInPage: page,
  }) => {
    const [first, second] = [220, 221];
    for (const day of [first, second]) {
      await openFirstOffer(page, day);
      await payButton(page).click();
      await expectConfirmed(page);
    }
    const response = await page.request.get(
      `/api/bookings?from=${isoDateFromToday(first)}&to=${isoDateFromToday(second)}`,
      { headers: { 'x-requested-with': 'wayfare' } },
    );
    const booked = ((await response.json()) as { items: { bookingId: string; tripId: string }[] }).items;
    expect(booked).toHaveLength(2);
    const tripLink = (region: string) =>
      page.getByRole('region', { name: region }).locator(`a[href="/trips/${booked[0]!.tripId}"]`);

    await page.goto('/trips');
    await expect(tripLink('Upcoming')).toHaveText('London trip');
    await tripLink('Upcoming').click();
    await expect(page.getByRole('heading', { name: 'Zurich → London', level: 4 })).toHaveCount(2);

    for (const { bookingId } of booked) {
      await page.goto(`/bookings/${bookingId}`);
      await demoControlsInPlace(page);
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
      await expect(page.getByRole('heading', { name: 'Cancelled' })).toBeVisible();
    }
    await page.goto('/trips');
    await expect(tripLink('Cancelled')).toHaveText('London trip');
    await expect(tripLink('Upcoming')).toHaveCount(0);
  });

  test('a changed price needs a yes, a declined card asks for another, the same flight again conflicts', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await arm(admin, traveler, 'price-change');
    await arm(admin, traveler, 'payment-decline');
    await openFirstOffer(page, 205);
    await expect(page.getByRole('heading', { name: 'The price has changed' })).toBeVisible();
    await expect(page.locator('del')).toBeVisible();
    await expect(payButton(page)).toBeDisabled();
    await page.getByLabel('Book at the new price').check();
    const cards = page.getByRole('radiogroup', { name: 'Payment method on file' }).getByRole('radio');
    const cardsBefore = await cardsOnFile(cards);
    // Booked from the keyboard: focus lands on each outcome, not on the page.
    await payWithKeyboard(page);
    await expect(page.getByRole('alert').filter({ hasText: 'Payment declined' })).toBeFocused();
    await expect(cards).toHaveCount(cardsBefore - 1);
    await payButton(page).click();
    const reference = await expectConfirmed(page);

    await openFirstOffer(page, 205);
    await payWithKeyboard(page);
    await expect(
      page.getByRole('alert').filter({ hasText: 'This booking clashes with one you have' }),
    ).toBeFocused();
    await expect(page.getByText(new RegExp(`already have flight .*${reference}`))).toBeVisible();
    expect(await bookingsOn(page, 205)).toHaveLength(1);
  });

  test('an expired offer goes back to the choices with the search kept, and another choice books', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await arm(admin, traveler, 'offer-expired');
    await openFirstOffer(page, 210);
    await expect(page.getByRole('heading', { name: 'This offer has expired' })).toBeVisible();
    await page.getByRole('button', { name: 'Choose again' }).click();
    await expect(page).toHaveURL(new RegExp(`leg=ZRH.LHR.${isoDateFromToday(210)}`));
    await expect(
      page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first(),
    ).toBeVisible();
    await openFirstOffer(page, 210);
    await payButton(page).click();
    await expectConfirmed(page);
  });

  test('a double submit and a connection dropped mid-submit each make one booking', async ({
    signedInPage: page,
  }) => {
    await openFirstOffer(page, 215);
    await expect(payButton(page)).toBeEnabled();
    await payButton(page).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expectConfirmed(page);
    expect(await bookingsOn(page, 215)).toHaveLength(1);

    let dropped = false;
    await page.route('**/api/bookings', async (route) => {
      if (dropped || route.request().method() !== 'POST') return route.continue();
      dropped = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await openFirstOffer(page, 216);
    await payButton(page).click();
    await expectConfirmed(page);
    expect(dropped).toBe(true);
    expect(await bookingsOn(page, 216)).toHaveLength(1);
  });
});

test.describe('booking in Spanish', () => {
  test('a traveler whose locale is es-ES reads checkout, the changed price, a declined card and the confirmation in Spanish, axe-clean', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    // The checkout's first price check answers before the lever is armed: the lever changes the next
    // check, which must be the one after the reload.
    const firstCheck = page.waitForResponse((response) => response.url().includes('/price-check'));
    await openFirstOffer(page, 220);
    await firstCheck;
    // The choice stays in this tab: with the profile now in Spanish, the same checkout reloads in Spanish
    // and checks the price again, which the armed lever changes.
    expect(await setProfileLocale(page, 'es-ES')).toBe(true);
    await arm(admin, traveler, 'price-change');
    await arm(admin, traveler, 'payment-decline');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    const main = page.getByRole('main');
    await expect(page.getByRole('heading', { level: 1, name: ES.bookFlight })).toBeVisible();
    await expect(page.getByRole('heading', { name: ES.priceChanged })).toBeVisible();
    // Spanish grouping, and a decimal comma when the traveler's currency has minor units (not JPY).
    await expect(main.locator('del')).toHaveText(/^\d{1,3}(\.\d{3})*(,\d{2})?\s\S+$/);
    await expect(page.getByRole('region', { name: ES.yourChoice })).toContainText(
      new RegExp(`\\b${SPANISH_WEEKDAY_DATE.source}\\b`),
    );
    await expect(page.getByRole('group', { name: ES.traveler }).getByLabel(ES.fullName)).not.toHaveValue('');
    const pay = page.getByRole('button', { name: ES.bookAndPay });
    await expect(pay).toBeDisabled();
    await expect(page.getByRole('region', { name: ES.yourChoice })).toContainText('Equipaje por pasajero');
    await expect(main).not.toContainText(ENGLISH_WORDS);
    await expectNoAxeViolations(page, 'checkout with a changed price in Spanish');

    await page.getByLabel(ES.acceptPrice).check();
    const cards = page.getByRole('radiogroup', { name: ES.paymentMethods }).getByRole('radio');
    const cardsBefore = await cardsOnFile(cards);
    await pay.click();
    await expect(page.getByRole('heading', { name: ES.declined })).toBeVisible();
    await expect(page.getByText(/El emisor de la tarjeta ha rechazado .* acabada en \d{4}\./)).toBeVisible();
    await expect(cards).toHaveCount(cardsBefore - 1);
    await expect(main).not.toContainText(ENGLISH_WORDS);
    await expectNoAxeViolations(page, 'declined card in Spanish');

    await pay.click();
    await expect(page.getByRole('heading', { name: ES.confirmed })).toBeVisible();
    await expect(main.getByRole('status').filter({ hasText: ES.confirmed })).toContainText(ES.reference);
    await expect(page.getByRole('heading', { name: ES.whatYouBooked })).toBeVisible();
    await expect(page.getByRole('button', { name: ES.cancel })).toBeVisible();
    await expect(main).toContainText(new RegExp(`${SPANISH_DAY_MONTH.source} \\d{4}`));
    await expect(main).not.toContainText(ENGLISH_WORDS);
    await expectNoAxeViolations(page, 'booking confirmation in Spanish');
    expect(await bookingsOn(page, 220)).toHaveLength(1);
    const reference = (await page.locator('.notice-success strong.mono').textContent()) ?? '';

    // The bookings filters' dates are typed as Spain writes them: day, month, year.
    await page.goto('/bookings?when=all');
    const filters = page.getByRole('complementary', { name: 'Filtros' });
    const from = filters.getByRole('group', { name: 'Desde', exact: true });
    await expect(from.locator('[data-type]').first()).toHaveAttribute('data-type', 'day');
    await fillDate(from, isoDateFromToday(220));
    await fillDate(filters.getByRole('group', { name: 'Hasta', exact: true }), isoDateFromToday(220));
    await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByRole('list', { name: 'Reservas' }).getByRole('article')).toHaveCount(1);
    await expect(page.getByRole('article').filter({ hasText: reference })).toBeVisible();
    await expectNoAxeViolations(page, 'bookings filtered by dates in Spanish');

    // The inbox writes the booking's confirmation in Spanish, from the booking's facts.
    await page.goto('/inbox');
    const confirmation = page.getByRole('article').filter({ hasText: reference }).first();
    await expect(confirmation.locator('.chip')).toHaveText(ES.confirmed);
    // Its cities too, as Spanish names them (the travel API's are English: "Zurich → London").
    await expect(confirmation.getByRole('heading', { level: 3 })).toHaveText(
      /Reserva confirmada: Zúrich → Londres$/,
    );
    await expect(confirmation).toContainText(`Referencia ${reference}`);
    await expect(confirmation.locator('[lang="en"]')).toHaveCount(0);
    await expect(confirmation).not.toContainText(/\d{4}-\d{2}-\d{2}/);
  });
});

test.describe('the start page in Spanish', () => {
  test.use({ locale: 'es-ES' });

  test('the signed-out start page is in the browser’s language, Spanish here, axe-clean', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1, name: ES.startHeading })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${ES.title}`));
    await expect(page.getByRole('main').getByRole('button', { name: ES.signIn })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Lo que puedes hacer' })).toContainText('Alojamientos');
    await expect(page.getByRole('main')).not.toContainText(ENGLISH_WORDS);
    await expectNoAxeViolations(page, 'signed-out start page in Spanish');
  });
});

test.describe('booking a stay', () => {
  test(
    'books a rate with its cancellation timeline, refuses an overlapping stay, and cancels',
    { tag: PHONE },
    async ({ signedInPage: page }) => {
      const day = 230;
      await searchStays(page, { city: 'Lisbon', checkInInDays: day, nights: 2 });
      await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();
      await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
      const propertyPage = page.url();
      const rate = rateCards(page).filter({ hasText: 'Free cancellation' }).first();
      await rate.getByText('Details and booking').click();
      await expect(rate.getByText(/Lisbon time/).first()).toBeVisible();
      await expect(rate.getByRole('heading', { name: 'Paid at the hotel' })).toBeVisible();
      await rate.getByRole('button', { name: /^Book/ }).click();
      await payButton(page).click();
      const reference = await expectConfirmed(page);
      await expect(page.getByText(/Free until .*Lisbon time/)).toBeVisible();

      await page.goto(propertyPage);
      await demoControlsInPlace(page);
      // The rates stream in: the second is chosen once they all have.
      await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
      const other = rateCards(page).nth(1);
      await other.getByText('Details and booking').click();
      await other.getByRole('button', { name: /^Book/ }).click();
      await payButton(page).click();
      await expect(
        page.getByRole('heading', { name: 'This booking clashes with one you have' }),
      ).toBeVisible();
      await expect(page.getByText(new RegExp(`booking ${reference}\\) overlaps`)).first()).toBeVisible();

      const [booking] = await bookingsOn(page, day);
      expect(booking).toMatchObject({ reference, status: 'confirmed' });
      await page.goto(`/bookings?from=${isoDateFromToday(day)}&to=${isoDateFromToday(day)}`);
      await demoControlsInPlace(page);
      await page.getByRole('article').filter({ hasText: reference }).getByRole('link').first().click();
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
      await expect(page.getByText(/Refund .*, fee /)).toBeVisible();
      expect(await bookingsOn(page, day)).toEqual([
        expect.objectContaining({ reference, status: 'cancelled' }),
      ]);
    },
  );
});
