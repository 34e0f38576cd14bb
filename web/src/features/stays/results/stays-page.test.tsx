// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StaysPage } from './stays-page.tsx';
import { PropertyPage } from '../hotel/property-page.tsx';
import { renderApp, sse } from '../../../test-support/render-app.tsx';
import { envelope, sentJson, stubFetch, type StubbedResponse } from '../../../test-support/stub-fetch.ts';
import { SOLUTION_KEY as KEY, stayProperty as property, uuid } from '../../../test-support/stay-fixtures.ts';
import { addDays, todayIsoDate } from '../../../lib/intl-format.ts';
import { forgetFinishedSearches } from './use-stay-search-run.ts';
import { startStaySearchRun, type StaySearchSnapshot } from './stay-search-run.ts';
import { staySearchFormFromParams, type StaySearch } from '../search/stay-search-params.ts';
import {
  activateEnglishForTests,
  activateSpanishForTests,
} from '../../../test-support/languages-for-tests.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  forgetFinishedSearches();
  activateEnglishForTests();
});

const checkIn = addDays(todayIsoDate(), 30);
const searchUrl = `/stays?city=paris-fr&name=Paris&country=FR&lat=48.85&lng=2.35&checkIn=${checkIn}&checkOut=${addDays(checkIn, 2)}&rooms=2&purpose=business`;
function fare(n: number, propertyId: string, total: number, refundable = true) {
  return {
    fareId: uuid(500 + n),
    propertyId,
    searchSolutionId: null,
    solutionKey: null,
    roomName: `Room ${n}`,
    bedType: 'Double',
    board: 'BREAKFAST',
    cancellation: { refundable, freeCancellationUntil: refundable ? `${checkIn}T18:00:00+01:00` : null },
    nightlyPrice: total / 2,
    totalPrice: total,
    currency: 'EUR',
    nights: 2,
    roomsLeft: 3,
    corporateRate: false,
  };
}

const profile = {
  travelerId: uuid(1),
  name: 'Alex Morgan',
  email: 'alex@wayfare.example',
  homeAirport: null,
  currency: 'EUR',
  locale: 'en-GB',
  bookingProfile: false,
  loyaltyPrograms: [],
  updatedAt: '2026-01-01T00:00:00Z',
};

const searchDone = { searchId: uuid(99), propertyCount: 2, expiresAt: '2030-01-01T00:00:00Z' };

/** The one stream of a stay search: both hotels found, Hotel Saffron priced, Grand Willow with no rooms. */
const PRICED_SEARCH = [
  sse('progress', { searchId: uuid(99), received: 0, expected: 2 }),
  sse('property', property(1, 'Hotel Saffron')),
  sse('property', property(2, 'Grand Willow')),
  sse('fare', { searchSolutionId: uuid(1), fare: fare(1, uuid(101), 300) }),
  sse('search-end', { ...searchDone, outcome: 'done' }),
  sse('fare', { searchSolutionId: uuid(1), fare: fare(2, uuid(101), 240) }),
  sse('property-end', { searchSolutionId: uuid(2), outcome: 'no-rooms' }),
  sse('property-end', { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 2 }),
  sse('done', { propertyCount: 2, priced: 1, noRooms: 1, failed: 0 }),
];

function stubStays({
  pricedSearch = PRICED_SEARCH,
  pricedSearchFor,
  faresFor = () => ({ chunks: [sse('done', { fareCount: 0 })] }),
  traveler = profile,
}: {
  pricedSearch?: string[];
  /** The answer to each stay search in turn (0 first), instead of `pricedSearch` every time. */
  pricedSearchFor?: (call: number) => StubbedResponse;
  faresFor?: (body: { propertyId?: string }) => StubbedResponse;
  traveler?: typeof profile;
}) {
  let searches = 0;
  return stubFetch((url, init) => {
    if (url.startsWith('/api/profile')) return { json: traveler };
    if (url === '/api/stays/properties/paris-fr-h03') return { json: SAFFRON_DETAILS };
    if (url.startsWith('/api/stays/destinations')) return { json: { items: [] } };
    if (url === '/api/stays/priced-search')
      return pricedSearchFor ? pricedSearchFor(searches++) : { chunks: pricedSearch };
    if (url === '/api/stays/fares') return faresFor(sentJson(init) as { propertyId?: string });
    return { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') };
  });
}

describe('StaysPage', () => {
  it('shows a search that finished minutes ago again on coming back, without searching or pricing again', async () => {
    const fetchMock = stubStays({});
    const first = renderApp(<StaysPage />, { url: searchUrl });
    await waitFor(() => expect(screen.getByText('Priced 2 of 2')).toBeInTheDocument());
    const staysCalls = () =>
      fetchMock.mock.calls.filter(([url]) => typeof url === 'string' && url.startsWith('/api/stays')).length;
    const callsBefore = staysCalls();
    first.unmount();

    renderApp(<StaysPage />, { url: searchUrl });
    expect(await screen.findByText('Priced 2 of 2')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Stays' })).getAllByRole('article')).toHaveLength(2);
    expect(staysCalls()).toBe(callsBefore);

    // Asking to search again does search again.
    // The form opens once its code (fetched apart from the page's) has arrived.
    await userEvent.click(screen.getByRole('button', { name: 'Edit search' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Search stays' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => url === '/api/stays/priced-search').length).toBe(2),
    );
  });

  it('shows each property as the stream yields it, prices them and counts the priced ones', async () => {
    const fetchMock = stubStays({});
    renderApp(<StaysPage />, { url: searchUrl });

    const list = await screen.findByRole('list', { name: 'Stays' });
    await waitFor(() => expect(within(list).getAllByRole('article')).toHaveLength(2));
    await waitFor(() => expect(screen.getByText('Priced 2 of 2')).toBeInTheDocument());
    expect(list).toHaveAttribute('aria-busy', 'false');

    const saffron = screen.getByRole('article', { name: 'Hotel Saffron' });
    expect(within(saffron).getByText('€120.00')).toBeInTheDocument();
    expect(within(saffron).getByText(/€240.00 total/)).toBeInTheDocument();
    const willow = screen.getByRole('article', { name: 'Grand Willow' });
    expect(within(willow).getByText('No rooms for these dates')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Prices ready for 2 stays.');

    // One stream for the whole search: the BFF prices each hotel itself.
    const staysCalls = fetchMock.mock.calls.filter(
      ([url]) => typeof url === 'string' && url.startsWith('/api/stays/'),
    );
    expect(staysCalls.map(([url]) => url)).toEqual(['/api/stays/priced-search']);
    expect(sentJson(staysCalls[0]?.[1])).toMatchObject({
      destination: { type: 'city', cityId: 'paris-fr' },
      rooms: [{ adults: 2, childrenAges: [] }],
      bookingProfile: false,
    });
  });

  it('a hotel whose pricing failed can be priced again from its card, and the count follows', async () => {
    const failed = (code: string, action: string, retryAfterSeconds: number | null) =>
      sse('property-end', {
        searchSolutionId: uuid(2),
        outcome: 'failed',
        error: envelope(code, action, { retryAfterSeconds }),
      });
    let fares = 0;
    const fetchMock = stubStays({
      pricedSearch: [
        sse('property', property(1, 'Hotel Saffron')),
        sse('property', property(2, 'Grand Willow')),
        sse('fare', { searchSolutionId: uuid(1), fare: fare(1, uuid(101), 300) }),
        sse('property-end', { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 1 }),
        failed('NETWORK_ERROR', 'RETRY_NOW', null),
        sse('search-end', { ...searchDone, outcome: 'done' }),
        sse('done', { propertyCount: 2, priced: 1, noRooms: 0, failed: 1 }),
      ],
      faresFor: () => {
        fares += 1;
        return fares === 1
          ? { chunks: [sse('error', envelope('PROVIDER_ERROR', 'RETRY_LATER', { retryAfterSeconds: 1 }))] }
          : { chunks: [sse('fare', fare(3, uuid(102), 220)), sse('done', { fareCount: 1 })] };
      },
    });
    renderApp(<StaysPage />, { url: searchUrl });

    const willow = await screen.findByRole('article', { name: 'Grand Willow' });
    await waitFor(() => expect(screen.getByText('Priced 1 of 2 · 1 unavailable')).toBeInTheDocument());
    await userEvent.click(within(willow).getByRole('button', { name: 'Try again: Grand Willow' }));
    // The provider asks for a second: the card says so, then tries again by itself.
    expect(await within(willow).findByText(/Trying again in 1 s/)).toBeInTheDocument();
    expect(await within(willow).findByText('€110.00')).toBeInTheDocument();
    expect(screen.getByText('Priced 2 of 2')).toBeInTheDocument();
    const retries = fetchMock.mock.calls.filter(([url]) => url === '/api/stays/fares');
    expect(retries).toHaveLength(2);
    expect(sentJson(retries[0]?.[1])).toMatchObject({ searchSolutionId: uuid(2), propertyId: uuid(102) });
  });

  it('OFFER_EXPIRED while pricing says the results are out of date, with no card left waiting', async () => {
    stubStays({
      pricedSearch: [
        sse('property', property(1, 'Hotel Saffron')),
        sse('property', property(2, 'Grand Willow')),
        sse('fare', { searchSolutionId: uuid(1), fare: fare(1, uuid(101), 300) }),
        sse('property-end', { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 1 }),
        sse('error', envelope('OFFER_EXPIRED', 'CHANGE_SELECTION')),
      ],
    });
    renderApp(<StaysPage />, { url: searchUrl });

    expect(
      await screen.findByRole('heading', { name: 'Prices changed since this search' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Go back to the choices/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search again' })).toBeInTheDocument();
    const willow = screen.getByRole('article', { name: 'Grand Willow' });
    expect(within(willow).getByText('Not priced')).toBeInTheDocument();
    expect(screen.queryByText('Checking prices')).not.toBeInTheDocument();
    expect(screen.queryByText(/Priced \d+ of/)).not.toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
  });

  it('sorts and filters the hotels found without searching again, and the URL keeps the choice', async () => {
    const fetchMock = stubStays({});
    const { router } = renderApp(<StaysPage />, { url: searchUrl });
    const list = await screen.findByRole('list', { name: 'Stays' });
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));
    const cards = () =>
      within(list)
        .getAllByRole('article')
        .map((card) => card.getAttribute('aria-labelledby'));
    // Both hotels are as near: they stay in the order they were found, the one with no rooms included.
    expect(cards()).toEqual([`property-${uuid(1)}`, `property-${uuid(2)}`]);

    await userEvent.click(screen.getByRole('radio', { name: 'Rating' }));
    await userEvent.click(screen.getAllByRole('checkbox', { name: 'Free cancellation' })[0]!);
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('sort')).toBe('rating');
    expect(params.get('freeCancellation')).toBe('1');
    expect(cards()).toEqual([`property-${uuid(1)}`]);
    expect(screen.getByText('1 of 2 stays match the filters')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/stays/priced-search')).toHaveLength(1);
  });

  it('MAX_NIGHTS_EXCEEDED shows the maximum and shortens the stay in one step', async () => {
    stubStays({
      pricedSearch: [
        sse('property', property(1, 'Hotel Saffron')),
        sse(
          'error',
          envelope('MAX_NIGHTS_EXCEEDED', 'FIX_INPUT', { message: 'Stays are limited to 30 nights' }),
        ),
      ],
    });
    const { router } = renderApp(<StaysPage />, {
      url: searchUrl.replace(/checkOut=[^&]+/, `checkOut=${addDays(checkIn, 40)}`),
    });
    expect(
      await screen.findByRole('heading', { name: 'This stay is too long to price' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/at most 30 nights; this stay has 40/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Shorten to 30 nights' }));
    expect(new URLSearchParams(router.state.location.search).get('checkOut')).toBe(addDays(checkIn, 30));
  });

  it('after a search the form folds into one line, and Edit search opens it at the destination', async () => {
    stubStays({});
    renderApp(<StaysPage />, { url: searchUrl });
    expect(await screen.findByRole('article', { name: /Hotel Saffron/ })).toBeInTheDocument();
    const summary = screen.getByText('Paris').closest('p');
    expect(summary).toHaveTextContent(/Paris · .+ – .+ · /);
    await userEvent.click(screen.getByRole('button', { name: 'Edit search' }));
    expect(screen.queryByRole('button', { name: 'Edit search' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Destination' })).toHaveFocus();
  });

  it('a problem the travel API finds in a field opens the folded form with the problem at that field', async () => {
    stubStays({
      pricedSearch: [
        sse(
          'error',
          envelope('VALIDATION_ERROR', 'FIX_INPUT', {
            details: [{ field: 'checkIn', code: 'too_far_ahead', message: 'too far ahead' }],
          }),
        ),
      ],
    });
    renderApp(<StaysPage />, { url: searchUrl });
    const checkInField = await screen.findByRole('group', { name: 'Check-in' });
    await waitFor(() => {
      for (const segment of within(checkInField).getAllByRole('spinbutton'))
        expect(segment).toHaveAttribute('aria-invalid', 'true');
    });
    expect(screen.queryByRole('button', { name: 'Edit search' })).not.toBeInTheDocument();
  });

  it('an empty search says so instead of showing an empty list', async () => {
    stubFetch((url) => {
      if (url.startsWith('/api/profile')) return { json: profile };
      if (url === '/api/stays/priced-search')
        return {
          chunks: [
            sse('search-end', { ...searchDone, propertyCount: 0, outcome: 'done' }),
            sse('done', { propertyCount: 0, priced: 0, noRooms: 0, failed: 0 }),
          ],
        };
      return { json: { items: [] } };
    });
    renderApp(<StaysPage />, { url: searchUrl });
    expect(await screen.findByRole('heading', { name: 'No stays found' })).toBeInTheDocument();
  });
});

/** Hotel Saffron priced, then the connection dropped while Grand Willow's rates were coming. */
const CUT_WHILE_PRICING = [
  sse('progress', { searchId: uuid(99), received: 0, expected: 2 }),
  sse('property', property(1, 'Hotel Saffron')),
  sse('property', property(2, 'Grand Willow')),
  sse('fare', { searchSolutionId: uuid(1), fare: fare(1, uuid(101), 300) }),
  sse('property-end', { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 1 }),
  sse('fare', { searchSolutionId: uuid(2), fare: fare(2, uuid(102), 280) }),
];

/** The same search run again on another instance: new solution ids, and one hotel more. */
const SEARCH_AGAIN = [
  sse('progress', { searchId: uuid(98), received: 0, expected: 3 }),
  sse('property', { ...property(1, 'Hotel Saffron'), searchId: uuid(98), searchSolutionId: uuid(11) }),
  sse('property', { ...property(2, 'Grand Willow'), searchId: uuid(98), searchSolutionId: uuid(12) }),
  sse('property', { ...property(3, 'Maison Ivy'), searchId: uuid(98), distanceKm: 2.5 }),
  sse('fare', { searchSolutionId: uuid(11), fare: fare(5, uuid(101), 200) }),
  sse('property-end', { searchSolutionId: uuid(11), outcome: 'priced', fareCount: 1 }),
  sse('fare', { searchSolutionId: uuid(12), fare: fare(2, uuid(102), 280) }),
  sse('fare', { searchSolutionId: uuid(12), fare: fare(3, uuid(102), 220) }),
  sse('property-end', { searchSolutionId: uuid(12), outcome: 'priced', fareCount: 2 }),
  sse('fare', { searchSolutionId: uuid(3), fare: fare(4, uuid(103), 400) }),
  sse('property-end', { searchSolutionId: uuid(3), outcome: 'priced', fareCount: 1 }),
  sse('search-end', {
    searchId: uuid(98),
    propertyCount: 3,
    expiresAt: '2030-01-01T00:00:00Z',
    outcome: 'done',
  }),
  sse('done', { propertyCount: 3, priced: 3, noRooms: 0, failed: 0 }),
];

const pricedSearches = (fetchMock: ReturnType<typeof stubStays>) =>
  fetchMock.mock.calls.filter(([url]) => url === '/api/stays/priced-search');

describe('A stay search whose connection drops', () => {
  it('resumes by itself: each hotel keeps its card and its price, the cut one is priced, a new one is added, nothing says it was cut', async () => {
    const fetchMock = stubStays({
      pricedSearchFor: (call) =>
        call === 0 ? { chunks: CUT_WHILE_PRICING, failAfterChunks: true } : { chunks: SEARCH_AGAIN },
    });
    renderApp(<StaysPage />, { url: searchUrl });

    const list = await screen.findByRole('list', { name: 'Stays' });
    await waitFor(() => expect(screen.getByText('Priced 3 of 3')).toBeInTheDocument(), { timeout: 5_000 });
    expect(list).toHaveAttribute('aria-busy', 'false');
    expect(
      within(list)
        .getAllByRole('article')
        .map((card) => card.getAttribute('aria-labelledby')),
    ).toEqual([`property-${uuid(1)}`, `property-${uuid(2)}`, `property-${uuid(3)}`]);
    // The price shown before the cut stays: the search run again does not change it.
    expect(
      within(screen.getByRole('article', { name: 'Hotel Saffron' })).getByText('€150.00'),
    ).toBeInTheDocument();
    // The rates cut off are those of the search run again, each once.
    const willow = screen.getByRole('article', { name: 'Grand Willow' });
    expect(within(willow).getByText('€110.00')).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Maison Ivy' })).getByText('€200.00'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'The search was cut short' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Prices unavailable/)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Prices ready for 3 stays.');
    expect(pricedSearches(fetchMock)).toHaveLength(2);
    expect(sentJson(pricedSearches(fetchMock)[1]?.[1])).toEqual(sentJson(pricedSearches(fetchMock)[0]?.[1]));
  });

  it('while it resumes, no hotel shown leaves the list, moves, or loses a price it showed', async () => {
    stubStays({
      pricedSearchFor: (call) =>
        call === 0 ? { chunks: CUT_WHILE_PRICING, failAfterChunks: true } : { chunks: SEARCH_AGAIN },
    });
    const snapshots: StaySearchSnapshot[] = [];
    // The search of searchUrl, as the page runs it.
    const form = staySearchFormFromParams(new URL(searchUrl, 'https://wayfare.test').searchParams, {
      checkIn,
      checkOut: checkIn,
      bookingProfile: false,
    });
    if (!form.destination) throw new Error('searchUrl names no destination');
    const search: StaySearch = { ...form, destination: form.destination };
    const run = startStaySearchRun(search, (snapshot) => snapshots.push(snapshot));
    await vi.waitFor(() => expect(snapshots.at(-1)?.phase).toBe('complete'), { timeout: 5_000 });
    run.stop();

    const shownBefore = new Map<string, number>();
    const cheapestShown = new Map<string, number>();
    for (const snapshot of snapshots) {
      for (const [id, place] of shownBefore) expect(snapshot.properties[place]?.searchSolutionId).toBe(id);
      snapshot.properties.forEach((property, place) => shownBefore.set(property.searchSolutionId, place));
      for (const id of cheapestShown.keys()) {
        const price = snapshot.prices[id];
        expect(
          price?.state === 'pricing' || price?.state === 'priced' ? price.cheapest : null,
        ).not.toBeNull();
      }
      for (const [id, price] of Object.entries(snapshot.prices))
        if ((price.state === 'pricing' || price.state === 'priced') && price.cheapest)
          cheapestShown.set(id, price.cheapest.totalPrice);
    }
    const last = snapshots.at(-1) as StaySearchSnapshot;
    expect(last.properties.map((property) => property.name)).toEqual([
      'Hotel Saffron',
      'Grand Willow',
      'Maison Ivy',
    ]);
    expect(Object.values(last.prices).map((price) => price.state)).toEqual(['priced', 'priced', 'priced']);
    expect(last.pricedCount).toBe(3);
    expect(last.truncated).toBe(false);
    expect(cheapestShown.get(uuid(1))).toBe(300);
    expect(last.prices[uuid(2)]).toMatchObject({ state: 'priced', fareCount: 2 });
  });

  it('says the search was cut short only when every attempt to resume it was cut too', async () => {
    const fetchMock = stubStays({
      pricedSearchFor: () => ({ chunks: CUT_WHILE_PRICING, failAfterChunks: true }),
    });
    renderApp(<StaysPage />, { url: searchUrl });

    expect(
      await screen.findByRole('heading', { name: 'The search was cut short' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    // The first attempt and three more.
    expect(pricedSearches(fetchMock)).toHaveLength(4);
    const list = screen.getByRole('list', { name: 'Stays' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    expect(
      within(screen.getByRole('article', { name: 'Hotel Saffron' })).getByText('€150.00'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Grand Willow' })).getByText(
        'Prices unavailable: the connection dropped',
      ),
    ).toBeInTheDocument();
    expect(list).toHaveAttribute('aria-busy', 'false');
  });

  it('does not search again when the BFF says the travel API cut its own search short', async () => {
    const fetchMock = stubStays({
      pricedSearch: [
        sse('property', property(1, 'Hotel Saffron')),
        sse('fare', { searchSolutionId: uuid(1), fare: fare(1, uuid(101), 300) }),
        sse('property-end', { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 1 }),
        sse('search-end', { outcome: 'truncated', reason: 'upstream-failed' }),
        sse('truncated', { reason: 'upstream-failed' }),
      ],
    });
    renderApp(<StaysPage />, { url: searchUrl });

    expect(await screen.findByRole('heading', { name: 'The search was cut short' })).toBeInTheDocument();
    expect(pricedSearches(fetchMock)).toHaveLength(1);
  });

  it('resumes when the instance serving it says it is going away', async () => {
    const fetchMock = stubStays({
      pricedSearchFor: (call) =>
        call === 0
          ? { chunks: [...CUT_WHILE_PRICING, sse('truncated', { reason: 'server-shutdown' })] }
          : { chunks: SEARCH_AGAIN },
    });
    renderApp(<StaysPage />, { url: searchUrl });

    await waitFor(() => expect(screen.getByText('Priced 3 of 3')).toBeInTheDocument(), { timeout: 5_000 });
    expect(screen.queryByRole('heading', { name: 'The search was cut short' })).not.toBeInTheDocument();
    expect(pricedSearches(fetchMock)).toHaveLength(2);
  });

  it('a hotel page whose rates stream drops opens it again and shows each rate once', async () => {
    let calls = 0;
    stubStays({
      faresFor: () => {
        calls += 1;
        return calls === 1
          ? { chunks: [sse('fare', fare(1, uuid(101), 300))], failAfterChunks: true }
          : {
              chunks: [
                sse('fare', fare(1, uuid(101), 300)),
                sse('fare', fare(2, uuid(101), 260, false)),
                sse('done', { fareCount: 2 }),
              ],
            };
      },
    });
    const url = `/stays/properties/${uuid(101)}?city=paris-fr&name=Paris&country=FR&lat=48.85&lng=2.35&checkIn=${checkIn}&checkOut=${addDays(checkIn, 2)}&rooms=2&purpose=business&solution=${uuid(1)}&solutionKey=${KEY}&hotel=Hotel+Saffron`;
    renderApp(<PropertyPage />, { url, path: '/stays/properties/:propertyId' });

    const rates = await screen.findByRole('list', { name: 'Rates' });
    await waitFor(() => expect(rates).toHaveAttribute('aria-busy', 'false'), { timeout: 5_000 });
    expect(
      within(rates)
        .getAllByRole('article')
        .map((rate) => rate.getAttribute('aria-label')),
    ).toEqual(['Room 1, Breakfast included', 'Room 2, Breakfast included']);
    expect(screen.queryByRole('heading', { name: 'Room prices were cut short' })).not.toBeInTheDocument();
    expect(calls).toBe(2);
  });
});

const PICTURE = {
  url: 'data:image/svg+xml,%3Csvg%20xmlns%3D%27http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%27%2F%3E',
  width: 320,
  height: 200,
};
const SAFFRON_DETAILS = {
  ...property(1, 'Hotel Saffron'),
  propertyId: 'paris-fr-h03',
  address: '12 rue de la Paix, Paris',
  amenities: ['gym', 'pool', 'restaurant', 'spa', 'wifi'],
  image: PICTURE,
  currency: 'EUR',
  timeZone: 'Europe/Paris',
};
/** A rate the travel API converted into dollars, with the hotel's own euros beside. */
const inDollars = (n: number, total: number) => ({
  ...fare(n, uuid(101), total),
  currency: 'USD',
  propertyPrice: { nightlyPrice: total / 2 / 1.08, totalPrice: total / 1.08, currency: 'EUR' },
});
const LANGUAGES = [
  {
    language: 'English',
    activate: activateEnglishForTests,
    locale: 'en-US',
    words: {
      picture: 'Front of Hotel Saffron',
      stars: '4-star hotel',
      score: '8.4',
      address: 'Address: 12 rue de la Paix, Paris',
      amenities: 'Amenities',
      gym: 'gym',
      nightly: '$120.00',
      hotelNightly: 'In the hotel’s currency: €111.11 per night',
      hotelTotal: 'In the hotel’s currency: €111.11 per night, €222.22 total',
    },
  },
  {
    language: 'Spanish',
    activate: activateSpanishForTests,
    locale: 'es-ES',
    words: {
      picture: 'Fachada de Hotel Saffron',
      stars: 'Hotel de 4 estrellas',
      score: '8,4',
      address: 'Dirección: 12 rue de la Paix, Paris',
      amenities: 'Servicios',
      gym: 'gimnasio',
      nightly: '120,00 US$',
      hotelNightly: 'En la moneda del hotel: 111,11 € por noche',
      hotelTotal: 'En la moneda del hotel: 111,11 € por noche, 222,22 € en total',
    },
  },
];

describe('A hotel as a traveler paying in dollars sees it', () => {
  it.each(LANGUAGES)(
    'in $language: results priced in dollars with the hotel’s euros beside, each with its picture, stars in words, address, guest score and amenities',
    async ({ activate, locale, words }) => {
      activate();
      const fetchMock = stubStays({
        traveler: { ...profile, currency: 'USD', locale },
        pricedSearch: [
          sse('property', {
            ...property(1, 'Hotel Saffron'),
            address: '12 rue de la Paix, Paris',
            image: PICTURE,
          }),
          sse('fare', { searchSolutionId: uuid(1), fare: inDollars(1, 240) }),
          sse('property-end', { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 1 }),
          sse('search-end', { ...searchDone, propertyCount: 1, outcome: 'done' }),
          sse('done', { propertyCount: 1, priced: 1, noRooms: 0, failed: 0 }),
        ],
      });
      renderApp(<StaysPage />, { url: searchUrl });
      const card = await screen.findByRole('article', { name: 'Hotel Saffron' });
      expect(within(card).getByRole('img', { name: words.picture })).toHaveAttribute('src', PICTURE.url);
      expect(within(card).getByRole('img', { name: words.stars })).toBeInTheDocument();
      expect(within(card).getByText(words.score)).toBeInTheDocument();
      expect(card).toHaveTextContent(words.address);
      expect(
        within(within(card).getByRole('list', { name: words.amenities })).getByText(words.gym),
      ).toBeInTheDocument();
      expect(await within(card).findByText(words.nightly)).toBeInTheDocument();
      expect(within(card).getByText(words.hotelNightly)).toBeInTheDocument();
      const search = fetchMock.mock.calls.find(([url]) => url === '/api/stays/priced-search');
      expect(sentJson(search?.[1])).toMatchObject({ currency: 'USD' });
    },
  );

  it.each(LANGUAGES)(
    'in $language: the hotel page shows its picture, address, stars, guest score and every amenity, and rates in dollars with the hotel’s euros',
    async ({ activate, locale, words }) => {
      activate();
      const fetchMock = stubStays({
        traveler: { ...profile, currency: 'USD', locale },
        faresFor: () => ({ chunks: [sse('fare', inDollars(1, 240)), sse('done', { fareCount: 1 })] }),
      });
      const url = `/stays/properties/${uuid(101)}?city=paris-fr&name=Paris&country=FR&lat=48.85&lng=2.35&checkIn=${checkIn}&checkOut=${addDays(checkIn, 2)}&rooms=2&purpose=business&solution=${uuid(1)}&solutionKey=${KEY}&hotel=Hotel+Saffron&hotelId=paris-fr-h03&hotelCity=Paris&hotelCountry=FR&hotelLat=48.86&hotelLng=2.34`;
      renderApp(<PropertyPage />, { url, path: '/stays/properties/:propertyId' });
      const header = (await screen.findByRole('heading', { name: 'Hotel Saffron', level: 1 })).closest(
        'header',
      );
      if (!header) throw new Error('no header');
      expect(await within(header).findByRole('img', { name: words.picture })).toHaveAttribute(
        'src',
        PICTURE.url,
      );
      expect(within(header).getByRole('img', { name: words.stars })).toBeInTheDocument();
      expect(header).toHaveTextContent(words.address);
      expect(within(header).getByText(words.score)).toBeInTheDocument();
      expect(
        within(within(header).getByRole('list', { name: words.amenities })).getAllByRole('listitem'),
      ).toHaveLength(5);
      const [rate] = await screen.findAllByRole('article');
      expect(within(rate!).getByText(words.nightly)).toBeInTheDocument();
      expect(within(rate!).getByText(words.hotelTotal)).toBeInTheDocument();
      const fares = fetchMock.mock.calls.find(([url]) => url === '/api/stays/fares');
      expect(sentJson(fares?.[1])).toMatchObject({ searchSolutionId: uuid(1), currency: 'USD' });
    },
  );
});

describe('PropertyPage', () => {
  const propertyUrl = `/stays/properties/${uuid(101)}?city=paris-fr&name=Paris&country=FR&lat=48.85&lng=2.35&checkIn=${checkIn}&checkOut=${addDays(checkIn, 2)}&rooms=2&purpose=business&solution=${uuid(1)}&solutionKey=${KEY}&hotel=Hotel+Saffron`;

  it('streams the rates with room, board, cancellation terms, nightly and total price', async () => {
    stubStays({
      faresFor: () => ({
        chunks: [
          sse('fare', fare(1, uuid(101), 300)),
          sse('fare', fare(2, uuid(101), 260, false)),
          sse('done', { fareCount: 2 }),
        ],
      }),
    });
    renderApp(<PropertyPage />, { url: propertyUrl, path: '/stays/properties/:propertyId' });
    expect(await screen.findByRole('heading', { name: 'Hotel Saffron', level: 1 })).toBeInTheDocument();
    const rates = await screen.findAllByRole('article');
    expect(rates).toHaveLength(2);
    expect(within(rates[0]!).getByText('Room 1')).toBeInTheDocument();
    expect(within(rates[0]!).getByText('Breakfast included')).toBeInTheDocument();
    expect(within(rates[0]!).getByText(/Free cancellation until/)).toBeInTheDocument();
    expect(within(rates[0]!).getByText('€150.00')).toBeInTheDocument();
    expect(within(rates[0]!).getByText('€300.00')).toBeInTheDocument();
    expect(within(rates[1]!).getByText('Non-refundable')).toBeInTheDocument();
  });

  it('OFFER_EXPIRED says prices changed and goes back to the search, which runs again', async () => {
    stubStays({ faresFor: () => ({ status: 410, json: envelope('OFFER_EXPIRED', 'CHANGE_SELECTION') }) });
    const { router } = renderApp(<PropertyPage />, {
      url: propertyUrl,
      path: '/stays/properties/:propertyId',
    });
    expect(await screen.findByRole('heading', { name: 'Prices changed, choose again' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to the search results' }));
    expect(router.state.location.pathname).toBe('/stays');
    expect(new URLSearchParams(router.state.location.search).get('checkIn')).toBe(checkIn);
  });

  it('PROVIDER_ERROR has its own state with a retry after the wait', async () => {
    stubStays({
      faresFor: () => ({
        chunks: [sse('error', envelope('PROVIDER_ERROR', 'RETRY_LATER', { retryAfterSeconds: 30 }))],
      }),
    });
    renderApp(<PropertyPage />, { url: propertyUrl, path: '/stays/properties/:propertyId' });
    expect(
      await screen.findByRole('heading', { name: 'The hotel provider could not price this stay' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Trying again in 30 s')).toBeInTheDocument();
  });
});
