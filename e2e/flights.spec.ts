import type { Locator, Page } from '@playwright/test';
import { expect, setProfileLocale, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { fillDate, isoDateFromToday } from './support/dates.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { expectOnFirstScreen } from './support/first-screen.ts';
import { PHONE } from './support/tags.ts';
import { SPANISH_WEEKDAY_DATE } from './support/words.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

/**
 * A price as Spain writes it, in the traveler's currency: the amount first, a decimal comma, then the
 * currency ("1.234,50 €", "589,36 US$", "802,18 CAD", "80.120 JPY"); English writes "US$589.36".
 */
const SPANISH_PRICE = /\d(,\d{2})?\s(€|US\$|[A-Z]{3})/;
/** Spanish month names, as in "18 de noviembre de 2027" or the calendar's "abril de 2027". */
const SPANISH_MONTH =
  /(enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)/;
/** English the flight screens would show if a word escaped the catalogs (carrier names are English). */
const ENGLISH_FLIGHT_WORDS =
  /\b(Flights|Nonstop|stops?|offers?|Refundable|Non-refundable|Changes allowed|No changes|Details and booking|Economy|Filters|Stops|Best|Cheapest|Fastest|Departure time|per adult|seats? left|Search flights|One-way|Return|Adults|Cabin)\b/;

async function chooseAirport(page: Page, combobox: Locator, code: string): Promise<void> {
  await combobox.fill(code);
  await page
    .getByRole('option', { name: new RegExp(`\\b${code}\\b`) })
    .first()
    .click();
  await expect(combobox).toHaveValue(new RegExp(code));
}

function flightForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Search flights' });
}

/**
 * Opens the flight search once the traveler's profile has filled in the home airport: the form is
 * rebuilt when the profile arrives, so typing before that would be lost.
 */
async function openFlightSearch(page: Page): Promise<Locator> {
  await page.goto('/flights');
  await demoControlsInPlace(page);
  const form = flightForm(page);
  await expect(form.getByRole('combobox', { name: 'From' }).first()).toHaveValue(/[A-Z]{3}/);
  return form;
}

/** Filters and sorting live in the URL, so a radio turns checked once the navigation has happened. */
async function choose(radio: Locator): Promise<void> {
  await radio.click();
  await expect(radio).toBeChecked();
}

/** The date field of a flight (or the return date) inside `scope`. */
function dateField(scope: Locator, name = 'Date'): Locator {
  return scope.getByRole('group', { name, exact: true });
}

function offers(page: Page): Locator {
  return page.getByRole('list', { name: 'Flight offers' }).getByRole('article');
}

/** Total prices of the offers shown, in order, as numbers. */
async function shownPrices(page: Page): Promise<number[]> {
  const labels = await offers(page).evaluateAll((articles) =>
    articles.map((article) => article.getAttribute('aria-label') ?? ''),
  );
  return labels.map((label) => Number((/([\d.,]+)\D*$/.exec(label)?.[1] ?? '').replace(/,/g, '')));
}

test.describe('flight search', () => {
  test(
    'a traveler finds one-way flights with carriers, local times, stops and prices',
    { tag: PHONE },
    async ({ signedInPage: page }) => {
      const date = isoDateFromToday(30);
      const form = await openFlightSearch(page);
      await form.getByRole('radio', { name: 'One-way' }).check();
      await chooseAirport(page, form.getByRole('combobox', { name: 'From' }), 'LHR');
      await chooseAirport(page, form.getByRole('combobox', { name: 'To' }), 'JFK');
      await fillDate(dateField(form), date);
      await form.getByRole('button', { name: 'Search flights' }).click();

      await expect(page).toHaveURL(new RegExp(`trip=one-way&leg=LHR\\.JFK\\.${date}`));
      await expect(page.getByRole('heading', { name: /Flights LHR → JFK/ })).toBeVisible();
      await expect(offers(page).first()).toBeVisible();
      const first = offers(page).first();
      await expect(first).toContainText('LHR');
      await expect(first).toContainText('JFK');
      await expect(first).toContainText(/Nonstop|\d stops?/);
      await expect(first).toContainText(/\d{1,2}:\d{2}/);
      await expect(first).toHaveAccessibleName(/\d/);
      // The results lead: the form folds into one line, so the first offer is on the first screen.
      await expectOnFirstScreen(first);
      await page.getByRole('button', { name: 'Edit search' }).click();
      await expect(form.getByRole('combobox', { name: 'From' })).toBeFocused();
    },
  );

  test('a return search shows the way out and the way back on every offer', async ({
    signedInPage: page,
  }) => {
    const form = await openFlightSearch(page);
    await form.getByRole('radio', { name: 'Return' }).check();
    const outbound = form.getByRole('group', { name: 'Outbound' });
    await chooseAirport(page, outbound.getByRole('combobox', { name: 'From' }), 'CDG');
    await chooseAirport(page, outbound.getByRole('combobox', { name: 'To' }), 'MAD');
    await fillDate(dateField(outbound), isoDateFromToday(20));
    await fillDate(
      dateField(form.getByRole('group', { name: 'Return' }), 'Return date'),
      isoDateFromToday(27),
    );
    await form.getByRole('button', { name: 'Search flights' }).click();

    await expect(page).toHaveURL(/trip=return&leg=CDG\.MAD\.[\d-]+&leg=MAD\.CDG\.[\d-]+/);
    await expect(page.getByRole('heading', { name: /Flights CDG → MAD → CDG/ })).toBeVisible();
    const first = offers(page).first();
    await expect(first).toBeVisible();
    await expect(first.getByText('CDG', { exact: true })).toHaveCount(2);
    await expect(first.getByText('MAD', { exact: true })).toHaveCount(2);
    // Each way is named, so the traveler and a screen reader tell the way out from the way back.
    const airports = /^[A-Z]{3}$/;
    await expect(first.getByRole('group', { name: 'Outbound flight' }).getByText(airports)).toHaveText([
      'CDG',
      'MAD',
    ]);
    await expect(first.getByRole('group', { name: 'Return flight' }).getByText(airports)).toHaveText([
      'MAD',
      'CDG',
    ]);
  });

  test('a multi-city search flies three flights in order', async ({ signedInPage: page }) => {
    const form = await openFlightSearch(page);
    await form.getByRole('radio', { name: 'Multi-city' }).check();
    const flight1 = form.getByRole('group', { name: 'Flight 1' });
    await chooseAirport(page, flight1.getByRole('combobox', { name: 'From' }), 'AMS');
    await chooseAirport(page, flight1.getByRole('combobox', { name: 'To' }), 'FRA');
    await fillDate(dateField(flight1), isoDateFromToday(15));
    const flight2 = form.getByRole('group', { name: 'Flight 2' });
    await chooseAirport(page, flight2.getByRole('combobox', { name: 'From' }), 'FRA');
    await chooseAirport(page, flight2.getByRole('combobox', { name: 'To' }), 'FCO');
    await fillDate(dateField(flight2), isoDateFromToday(18));
    await form.getByRole('button', { name: 'Add another flight' }).click();
    const flight3 = form.getByRole('group', { name: 'Flight 3' });
    await expect(flight3.getByRole('combobox', { name: 'From' })).toHaveValue(/FCO/);
    await chooseAirport(page, flight3.getByRole('combobox', { name: 'To' }), 'AMS');
    await fillDate(dateField(flight3), isoDateFromToday(22));
    await form.getByRole('button', { name: 'Search flights' }).click();

    await expect(page).toHaveURL(
      /trip=multi-city&leg=AMS\.FRA\.[\d-]+&leg=FRA\.FCO\.[\d-]+&leg=FCO\.AMS\.[\d-]+/,
    );
    await expect(page.getByRole('heading', { name: /Flights AMS → FRA → FCO → AMS/ })).toBeVisible();
    await expect(offers(page).first()).toBeVisible();
  });

  test(
    'sorting and filters narrow the offers, and the URL brings them back after a reload',
    { tag: PHONE },
    async ({ signedInPage: page }) => {
      await page.goto(`/flights?trip=one-way&leg=LHR.JFK.${isoDateFromToday(40)}&adults=2&cabin=economy`);
      await expect(offers(page).first()).toBeVisible();
      const total = await offers(page).count();

      await choose(page.getByRole('radio', { name: 'Cheapest' }));
      await expect(page).toHaveURL(/sort=cheapest/);
      const prices = await shownPrices(page);
      expect(prices.length).toBe(total);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));

      // On a phone the filters are a sheet over the offers, behind a button.
      const phone = (page.viewportSize()?.width ?? 0) < 640;
      if (phone) await page.getByRole('button', { name: 'Filters' }).click();
      await choose(page.getByRole('radio', { name: 'Nonstop only' }));
      await expect(page).toHaveURL(/stops=0/);
      if (phone) {
        const sheet = page.getByRole('dialog', { name: 'Filters' });
        await sheet.getByRole('button', { name: 'Show flights' }).click();
        await expect(sheet).toBeHidden();
        await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
      }
      await expect(page.getByRole('heading', { name: /offers match the filters|offers/ })).toBeVisible();
      const nonstop = offers(page);
      const shown = await nonstop.count();
      expect(shown).toBeLessThanOrEqual(total);
      for (const offer of await nonstop.all()) await expect(offer).not.toContainText(/\d stops?/);

      await page.reload();
      await expect(page.getByRole('radio', { name: 'Cheapest' })).toBeChecked();
      await expect(offers(page)).toHaveCount(shown);
      await expect(page.getByText(/· 2 adults ·/)).toBeVisible();
      if (phone) await page.getByRole('button', { name: 'Filters (1)' }).click();
      await expect(page.getByRole('radio', { name: 'Nonstop only' })).toBeChecked();
    },
  );

  test('a date beyond what airlines sell is caught at the date field, saying until when flights are sold', async ({
    signedInPage: page,
  }) => {
    const form = await openFlightSearch(page);
    await form.getByRole('radio', { name: 'One-way' }).check();
    await chooseAirport(page, form.getByRole('combobox', { name: 'From' }), 'LHR');
    await chooseAirport(page, form.getByRole('combobox', { name: 'To' }), 'JFK');
    // react-aria's own words are built in for the interface's languages: the calendar button is named.
    await expect(dateField(form).getByRole('button', { name: 'Calendar Date' })).toBeVisible();
    await fillDate(dateField(form), isoDateFromToday(500));
    await form.getByRole('button', { name: 'Search flights' }).click();

    for (const segment of await dateField(form).getByRole('spinbutton').all()) {
      await expect(segment).toHaveAttribute('aria-invalid', 'true');
    }
    await expect(dateField(form)).toHaveAccessibleDescription(/up to 361 days ahead/);
    // Never a raw field path such as itinerary.0.date in front of the traveler.
    await expect(page.getByText(/itinerary\.\d/)).toHaveCount(0);
  });

  test('zero adults reaching the server comes back as a problem at the Adults field', async ({
    signedInPage: page,
  }) => {
    // The form never offers zero adults, so the request is rewritten on its way out: the server's
    // own validation answers, and the page must put its answer at passengers.adults.
    await page.route('**/api/flights/search', async (route) => {
      const body = route.request().postDataJSON() as { passengers: { adults: number } };
      await route.continue({
        postData: JSON.stringify({ ...body, passengers: { ...body.passengers, adults: 0 } }),
      });
    });
    await page.goto(`/flights?trip=one-way&leg=LHR.JFK.${isoDateFromToday(30)}&adults=1&cabin=economy`);

    const adults = flightForm(page).getByLabel('Adults');
    await expect(adults).toHaveAttribute('aria-invalid', 'true');
    await expect(adults).toHaveAccessibleDescription(/.+/);
  });

  test('a traveler whose locale is es-ES searches flights through a Spanish date field and reads Spanish results, axe-clean', async ({
    signedInPage: page,
  }) => {
    await setProfileLocale(page, 'es-ES');
    await page.goto('/flights');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1, name: 'Vuelos' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Buscar vuelos' });
    await expect(form.getByRole('combobox', { name: 'Origen' }).first()).toHaveValue(/[A-Z]{3}/);
    await form.getByRole('radio', { name: 'Solo ida' }).check();
    await chooseAirport(page, form.getByRole('combobox', { name: 'Origen' }), 'LHR');
    await chooseAirport(page, form.getByRole('combobox', { name: 'Destino' }), 'JFK');

    // The date reads day/month/year, and its calendar names the months and weekdays in Spanish.
    const date = dateField(form, 'Fecha');
    await expect(date.getByRole('spinbutton')).toHaveCount(3);
    expect(
      await date.getByRole('spinbutton').evaluateAll((parts) => parts.map((part) => part.dataset.type)),
    ).toEqual(['day', 'month', 'year']);
    await expect(date).toHaveText(/^\d{2}\/\d{2}\/\d{4}/);
    await date.getByRole('button', { name: /Calendario/ }).click();
    const calendar = page.getByRole('dialog');
    await expect(calendar.getByRole('heading')).toHaveText(new RegExp(`^${SPANISH_MONTH.source} de \\d{4}$`));
    await expect(calendar.getByText('lun', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, 'flight date calendar in Spanish');
    await page.keyboard.press('Escape');
    await expect(calendar).toBeHidden();

    // A date airlines do not sell yet is refused in Spanish, naming the last date they do.
    await fillDate(date, isoDateFromToday(500));
    await form.getByRole('button', { name: 'Buscar vuelos' }).click();
    const summary = form.getByRole('alert');
    await expect(summary.getByRole('heading', { name: 'Hay un dato que corregir' })).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Fecha del vuelo 1' })).toBeVisible();
    await expect(date).toHaveAccessibleDescription(
      new RegExp(
        `hasta 361 días de antelación: elige una fecha no posterior al \\d{1,2} de ${SPANISH_MONTH.source} de \\d{4}`,
      ),
    );
    await expectNoAxeViolations(page, 'flight search problems in Spanish');

    const when = isoDateFromToday(30);
    await fillDate(date, when);
    await form.getByRole('button', { name: 'Buscar vuelos' }).click();
    await expect(page).toHaveURL(new RegExp(`leg=LHR\\.JFK\\.${when}`));
    const results = page.getByRole('heading', { level: 2, name: /^Vuelos LHR → JFK/ });
    await expect(results).toContainText(/\d+ ofertas?/);
    const offers = page.getByRole('list', { name: 'Ofertas de vuelos' }).getByRole('article');
    await expect(offers.first()).toBeVisible();
    const first = offers.first();
    await expect(first).toContainText(/Directo|\d escalas?/);
    await expect(first).toContainText(/Turista/);
    await expect(first).toContainText(SPANISH_PRICE);
    await expect(first).toContainText(SPANISH_WEEKDAY_DATE);
    await expect(first).toContainText(/Reembolsable|No reembolsable/);
    await expect(first.getByText('Detalles y reserva')).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Filtros' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Aerolíneas' })).toBeVisible();
    await choose(page.getByRole('radio', { name: 'Más baratos' }));
    await expect(page.getByRole('main')).not.toContainText(ENGLISH_FLIGHT_WORDS);
    await expectNoAxeViolations(page, 'flight results in Spanish');
  });
});
