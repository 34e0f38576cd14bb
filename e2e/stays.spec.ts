import { expect, setProfileLocale, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { isoDateFromToday } from './support/dates.ts';
import { rateCards, searchStays, fillStaySearch, stayCards, type StaySearchWords } from './support/stays.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { expectOnFirstScreen } from './support/first-screen.ts';
import { PHONE } from './support/tags.ts';
import { SPANISH_DAY_MONTH } from './support/words.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

/** The stay screens' words in Spanish (Spain), as a traveler whose locale is es-ES reads them. */
const SPANISH_STAY_SEARCH: StaySearchWords = {
  form: 'Buscar alojamientos',
  destination: 'Destino',
  city: 'Ciudad',
  checkIn: 'Entrada',
  checkOut: 'Salida del alojamiento',
};
/** A price in euros as Spain writes it: "1.234,50 €" or "95,00 €". */
const SPANISH_EUROS = /\d,\d{2}\s€/;
/** English the stay screens would show if a word escaped the catalogs. */
const ENGLISH_STAY_WORDS =
  /\b(Stays in|Priced|per night|from|reviews|km from centre|Free cancellation|Non-refundable|Filters|Sort|Distance|Rating|Rooms and rates|total for|nights?|Room only|Breakfast included|Half board|Share this stay|Back to the search results|Business trip|adults?)\b/;

interface PropertyDestination {
  type: string;
  propertyId: string;
  name: string;
  city: string;
  countryCode: string;
  latitude: number;
  longitude: number;
}

test.describe('stay search', () => {
  test(
    'a traveler searches stays and every hotel found gets its price',
    { tag: PHONE },
    async ({ signedInPage: page }) => {
      await (await fillStaySearch(page, { city: 'Paris', checkInInDays: 30, nights: 2 })).click();
      await expect(stayCards(page).first()).toBeVisible();

      await expect(page).toHaveURL(/checkIn=.*checkOut=/);
      await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
      const count = await stayCards(page).count();
      await expect(page.getByText(`Priced ${count} of ${count}`)).toBeVisible();
      await expect(stayCards(page).filter({ hasText: 'per night' }).first()).toBeVisible();
    },
  );

  test(
    'after a search the hotels lead: the search is one line, on a phone the filters a sheet and a card a tap',
    { tag: PHONE },
    async ({ signedInPage: page }) => {
      await (await fillStaySearch(page, { city: 'Rome', checkInInDays: 34, nights: 2 })).click();
      const first = stayCards(page).first();
      await expect(first).toBeVisible();
      await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
      const phone = (page.viewportSize()?.width ?? 0) < 640;
      const editSearch = page.getByRole('button', { name: 'Edit search' });
      const searchForm = page.getByRole('form', { name: 'Search stays' });
      // On every screen the form folds into one line, so the first hotel is whole on the first screen.
      await expectOnFirstScreen(first);
      await expect(searchForm).toBeHidden();
      if (!phone) {
        // A wide screen keeps the filters in a column beside the hotels; the search opens in one click.
        await expect(page.getByRole('complementary', { name: 'Filters' })).toBeVisible();
        await editSearch.click();
        await expect(searchForm).toBeVisible();
        await expect(searchForm.getByRole('combobox', { name: 'Destination' })).toBeFocused();
        return;
      }

      await page.getByRole('button', { name: 'Filters' }).click();
      const sheet = page.getByRole('dialog', { name: 'Filters' });
      const freeCancellation = sheet.getByRole('checkbox', { name: 'Free cancellation' });
      await freeCancellation.click();
      await expect(freeCancellation).toBeChecked();
      await sheet.getByRole('button', { name: 'Show stays' }).click();
      await expect(sheet).toBeHidden();
      await expect(page).toHaveURL(/freeCancellation=1/);
      await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
      await expect(first).toContainText('Free cancellation');

      // The card opens the hotel wherever it is tapped, not only on its name.
      const name = (await first.getByRole('heading').textContent()) ?? '';
      const box = await first.locator('.property-meta').boundingBox();
      const cardBox = await first.boundingBox();
      expect(box && cardBox).toBeTruthy();
      await first.tap({ position: { x: box!.x - cardBox!.x + 4, y: box!.y - cardBox!.y + 4 } });
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await page.goBack();
      await editSearch.click();
      await expect(searchForm).toBeVisible();
    },
  );

  test('back from a hotel, the finished results come back as they were, without searching or pricing again', async ({
    signedInPage: page,
  }) => {
    await (await fillStaySearch(page, { city: 'Paris', checkInInDays: 32, nights: 2 })).click();
    await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
    const shown = await stayCards(page).count();
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').first().click();
    await expect(page.getByRole('list', { name: 'Rates' }).getByRole('article').first()).toBeVisible();

    const staysCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/stays\/(priced-search|search|fares)/.test(request.url())) staysCalls.push(request.url());
    });
    await page.getByRole('link', { name: '← Back to the search results' }).click();
    await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
    await expect(stayCards(page)).toHaveCount(shown);
    expect(staysCalls).toEqual([]);
  });

  test('a hotel’s rates show room, board, cancellation terms and the total for the stay', async ({
    signedInPage: page,
  }) => {
    await searchStays(page, { city: 'London', checkInInDays: 40, nights: 3 });
    const priced = stayCards(page).filter({ hasText: 'per night' }).first();
    await priced.getByRole('link').click();
    await expect(rateCards(page).first()).toBeVisible();
    await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
    const first = rateCards(page).first();
    await expect(first).toContainText('per night');
    await expect(first).toContainText('total for 3 nights');
    await expect(first).toContainText(/Free cancellation|Non-refundable/);
  });

  test('a party no room can hold gets the empty result, not an error', async ({ signedInPage: page }) => {
    await searchStays(page, { city: 'Madrid', checkInInDays: 25, nights: 2 });
    const url = new URL(page.url());
    url.searchParams.set('rooms', '6');
    await page.goto(url.pathname + url.search);
    await demoControlsInPlace(page);

    await expect(stayCards(page).first()).toBeVisible();
    await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
    await expect(stayCards(page).filter({ hasText: 'No rooms for these dates' })).toHaveCount(
      await stayCards(page).count(),
    );

    await stayCards(page).first().getByRole('link').click();
    await expect(page.getByRole('heading', { name: 'No rooms for these dates' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a stay longer than hotels price shows the maximum, and the traveler shortens it', async ({
    signedInPage: page,
  }) => {
    await (await fillStaySearch(page, { city: 'Rome', checkInInDays: 20, nights: 35 })).click();

    const notice = page.getByRole('alert').filter({ hasText: 'This stay is too long to price' });
    await expect(notice).toContainText('at most 30 nights');
    await expect(notice).toContainText('this stay has 35');
    await notice.getByRole('button', { name: 'Shorten to 30 nights' }).click();

    await expect(notice).toBeHidden();
    await expect(page.getByRole('heading', { name: /30 nights/ })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
    await expect(stayCards(page).filter({ hasText: 'per night' }).first()).toBeVisible();
  });

  test('a traveler whose locale is es-ES searches stays in Spanish: the form and the priced hotels, axe-clean', async ({
    signedInPage: page,
  }) => {
    await setProfileLocale(page, 'es-ES');
    // Typed as Spain writes it, and named so in the list and the results.
    const search = await fillStaySearch(
      page,
      { city: 'París', checkInInDays: 32, nights: 2 },
      SPANISH_STAY_SEARCH,
    );
    await expect(page.getByRole('heading', { level: 1, name: 'Alojamientos' })).toBeVisible();
    // The dates are written as Spain writes them, day first: dd/mm/aaaa.
    const [year, month, day] = isoDateFromToday(32).split('-');
    await expect(page.getByRole('group', { name: 'Entrada', exact: true })).toHaveText(
      new RegExp(`${day}\\s*/\\s*${month}\\s*/\\s*${year}`),
    );
    await expectNoAxeViolations(page, 'stay search form in Spanish');
    await search.click();

    // The hotels stream in and are priced one by one, counted and announced in Spanish.
    const results = page.getByRole('region', { name: /^Alojamientos en París/ });
    const hotels = page.getByRole('list', { name: 'Alojamientos' });
    await expect(hotels.getByRole('article').first()).toBeVisible();
    await expect(hotels).toHaveAttribute('aria-busy', 'false');
    const count = await hotels.getByRole('article').count();
    await expect(results.getByText(`Con precio: ${count} de ${count}`)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Precios listos para' })).toHaveText(
      count === 1 ? 'Precios listos para 1 alojamiento.' : `Precios listos para ${count} alojamientos.`,
    );
    const title = results.getByRole('heading', { level: 2, name: /^Alojamientos en París/ });
    await expect(title).toContainText(SPANISH_DAY_MONTH);
    await expect(title).toContainText('2 noches');
    const priced = hotels.getByRole('article').filter({ hasText: 'por noche' }).first();
    await expect(priced).toContainText(SPANISH_EUROS);
    await expect(priced).toContainText(/A [\d,]+ km del centro/);
    await expect(priced.getByRole('img', { name: /^Hotel de \d estrellas?$/ })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Filtros' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Ordenar alojamientos por' })).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText(ENGLISH_STAY_WORDS);
    await expectNoAxeViolations(page, 'stay results in Spanish');
  });

  test('a traveler whose locale is es-ES reads a hotel’s rates in Spanish, axe-clean', async ({
    signedInPage: page,
  }) => {
    await setProfileLocale(page, 'es-ES');
    await (
      await fillStaySearch(page, { city: 'París', checkInInDays: 32, nights: 2 }, SPANISH_STAY_SEARCH)
    ).click();
    const hotels = page.getByRole('list', { name: 'Alojamientos' });
    const priced = hotels.getByRole('article').filter({ hasText: 'por noche' }).first();
    await expect(priced).toBeVisible();

    // A hotel's rates stream in too, each in Spanish words and euros for the two nights.
    await priced.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 2, name: 'Habitaciones y tarifas' })).toBeVisible();
    const rates = page.getByRole('list', { name: 'Tarifas' });
    await expect(rates.getByRole('article').first()).toBeVisible();
    await expect(rates).toHaveAttribute('aria-busy', 'false');
    const rateCount = await rates.getByRole('article').count();
    await expect(
      page.getByText(rateCount === 1 ? '1 tarifa' : `${rateCount} tarifas`, { exact: true }),
    ).toBeVisible();
    const rate = rates.getByRole('article').first();
    await expect(rate).toContainText('por noche');
    await expect(rate).toContainText('en total por 2 noches');
    await expect(rate).toContainText(SPANISH_EUROS);
    await expect(rate).toContainText(/Cancelación gratuita|No reembolsable/);
    await expect(rate).toContainText(
      /Solo alojamiento|Desayuno incluido|Media pensión|Pensión completa|Todo incluido/,
    );
    await expect(page.getByRole('button', { name: 'Compartir esta estancia' })).toBeVisible();
    await expect(page.getByRole('link', { name: '← Volver a los resultados de la búsqueda' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(/Viaje de (trabajo|personal)|Viaje personal/);
    await expect(page.getByRole('main')).not.toContainText(ENGLISH_STAY_WORDS);
    await expectNoAxeViolations(page, 'hotel rates in Spanish');
  });

  test(
    'a shared stay link opens signed out, with live rates through a guest session',
    { tag: PHONE },
    async ({ signedInPage: page, browser }) => {
      // The link the "Share this stay" button builds: the hotel as an autocomplete destination, with
      // the dates and rooms (web/src/features/stays/hotel/share-stay-button.tsx, sharedStayPath).
      const found = await page.request.get('/api/stays/destinations?query=Barcelona', {
        headers: { 'X-Requested-With': 'wayfare' },
      });
      expect(found.ok()).toBe(true);
      const body = (await found.json()) as PropertyDestination[] | { items: PropertyDestination[] };
      const hotel = (Array.isArray(body) ? body : body.items).find((item) => item.type === 'property');
      if (!hotel) throw new Error('The destination autocomplete offers no Barcelona hotel');
      const link = new URLSearchParams({
        property: hotel.propertyId,
        propertyCity: hotel.city,
        name: hotel.name,
        country: hotel.countryCode,
        lat: String(hotel.latitude),
        lng: String(hotel.longitude),
        checkIn: isoDateFromToday(35),
        checkOut: isoDateFromToday(37),
        rooms: '2',
        purpose: 'business',
      });

      const visitor = await browser.newContext();
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(`/share/stay?${link.toString()}`);
      await expect(visitorPage.getByRole('heading', { level: 1, name: hotel.name })).toBeVisible();
      await expect(rateCards(visitorPage).first()).toBeVisible();
      await expect(rateCards(visitorPage).first()).toContainText('total for 2 nights');
      // A business link does not hand the sharer's corporate rates to a guest.
      await expect(visitorPage.getByText('Corporate rate')).toHaveCount(0);
      await expect(visitorPage.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeVisible();
      const session = await visitorPage.request.get('/api/session');
      expect(await session.json()).toMatchObject({ authenticated: true, kind: 'guest' });
      await visitor.close();
    },
  );
});
