// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FlightsPage } from './flights-page.tsx';
import { profileQueries } from '../../lib/profile-query.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { envelope, sentJson, stubFetch, type StubbedResponse } from '../../test-support/stub-fetch.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  activateEnglishForTests();
});

const date = addDays(todayIsoDate(), 30);
const lhr = { code: 'LHR', name: 'Heathrow', city: 'London', timeZone: 'Europe/London' };
const jfk = { code: 'JFK', name: 'John F. Kennedy', city: 'New York', timeZone: 'America/New_York' };
const fra = { code: 'FRA', name: 'Frankfurt am Main', city: 'Frankfurt', timeZone: 'Europe/Berlin' };

function segment(
  carrier: { code: string; name: string },
  origin: typeof lhr,
  destination: typeof lhr,
  departureTime: string,
  arrivalTime: string,
) {
  return {
    carrier,
    flightNumber: `${carrier.code} 100`,
    origin,
    destination,
    departureTime,
    arrivalTime,
    durationMinutes: 400,
    aircraft: 'A350',
    cabinClass: 'economy',
  };
}

function offer(id: string, amount: number, legs: unknown[], carriers: Array<{ code: string; name: string }>) {
  return {
    offerId: id,
    legs,
    cabinClass: 'economy',
    totalPrice: { amount, currency: 'GBP' },
    pricePerAdult: { amount, currency: 'GBP' },
    carriers,
    fareConditions: { refundable: false, changeable: true },
    seatsLeft: 9,
    expiresAt: '2030-01-01T00:00:00Z',
  };
}

/** A leg flown in one flight by `carrier`. */
function nonstopLeg(
  carrier: { code: string; name: string },
  origin: typeof lhr,
  destination: typeof lhr,
  departureTime: string,
  arrivalTime: string,
  durationMinutes: number,
) {
  return {
    origin,
    destination,
    departureTime,
    arrivalTime,
    durationMinutes,
    stops: 0,
    segments: [segment(carrier, origin, destination, departureTime, arrivalTime)],
  };
}

const polaris = { code: 'PO', name: 'Polaris Airways' };
const skylark = { code: 'SK', name: 'Skylark Airlines' };
const nonstopEvening = offer(
  'nonstop',
  900,
  [nonstopLeg(polaris, lhr, jfk, `${date}T20:00:00+00:00`, `${addDays(date, 1)}T01:30:00-05:00`, 510)],
  [polaris],
);
const cheapOneStop = offer(
  'one-stop',
  500,
  [
    {
      origin: lhr,
      destination: jfk,
      departureTime: `${date}T07:00:00+00:00`,
      arrivalTime: `${date}T15:00:00-05:00`,
      durationMinutes: 780,
      stops: 1,
      segments: [
        segment(skylark, lhr, fra, `${date}T07:00:00+00:00`, `${date}T09:45:00+01:00`),
        segment(skylark, fra, jfk, `${date}T11:00:00+01:00`, `${date}T15:00:00-05:00`),
      ],
    },
  ],
  [skylark],
);

const profile = {
  travelerId: '00000000-0000-4000-8000-000000000001',
  name: 'Alex Morgan',
  email: 'alex@wayfare.example',
  homeAirport: 'LHR',
  currency: 'GBP',
  locale: 'en-GB',
  bookingProfile: false,
  loyaltyPrograms: [],
  updatedAt: '2026-01-01T00:00:00Z',
};

function stubFlights(search: () => StubbedResponse) {
  return stubFetch((url) => {
    if (url === '/api/profile') return { json: profile };
    if (url === '/api/flights/search') return search();
    return { json: { items: [] } };
  });
}

const url = `/flights?trip=one-way&leg=LHR.JFK.${date}&adults=1&cabin=economy`;

describe('FlightsPage', () => {
  it('searches what the URL says and shows local times with +1, duration, stops, carriers and price', async () => {
    const fetchMock = stubFlights(() => ({
      json: { searchId: 's', currency: 'GBP', offers: [cheapOneStop, nonstopEvening] },
    }));
    renderApp(<FlightsPage />, { url });
    const nonstop = await screen.findByRole('article', { name: /Polaris Airways, £900.00/ });
    expect(within(nonstop).getByText('20:00')).toBeInTheDocument();
    expect(within(nonstop).getByText('+1')).toHaveAccessibleName('arrives 1 day later');
    expect(within(nonstop).getByText('Nonstop')).toBeInTheDocument();
    expect(within(nonstop).getByText('8h 30m')).toBeInTheDocument();
    const oneStop = screen.getByRole('article', { name: /Skylark Airlines, £500.00/ });
    expect(within(oneStop).getByText('1 stop (FRA)')).toBeInTheDocument();
    expect(within(oneStop).getByText('Layover in FRA: 1h 15m')).toBeInTheDocument();
    expect(within(nonstop).queryByText(/Layover/)).toBeNull();

    const body = sentJson(fetchMock.mock.calls.find(([called]) => called === '/api/flights/search')?.[1]);
    expect(body).toEqual({
      itinerary: [{ origin: 'LHR', destination: 'JFK', date }],
      passengers: { adults: 1 },
      cabinClass: 'economy',
      currency: 'GBP',
    });
  });

  it('sorts and filters in the URL: cheapest first, then nonstop only', async () => {
    stubFlights(() => ({ json: { searchId: 's', currency: 'GBP', offers: [nonstopEvening, cheapOneStop] } }));
    const { router } = renderApp(<FlightsPage />, { url });
    await screen.findAllByRole('article');
    await userEvent.click(screen.getByRole('radio', { name: 'Cheapest' }));
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('cheapest');
    let offers = screen.getAllByRole('article');
    expect(offers[0]).toHaveAccessibleName(/Skylark/);

    await userEvent.click(screen.getByRole('radio', { name: 'Nonstop only' }));
    expect(new URLSearchParams(router.state.location.search).get('stops')).toBe('0');
    offers = screen.getAllByRole('article');
    expect(offers).toHaveLength(1);
    expect(offers[0]).toHaveAccessibleName(/Polaris/);
    expect(screen.getByText('1 of 2 offers match the filters')).toBeInTheDocument();
  });

  it('names the departure time slots on the interface clock: 12 h in en-US, 24 h in en-GB', async () => {
    stubFlights(() => ({ json: { searchId: 's', currency: 'GBP', offers: [nonstopEvening, cheapOneStop] } }));
    renderApp(<FlightsPage />, { url });
    await screen.findAllByRole('article');
    expect(screen.getByRole('checkbox', { name: 'Morning (6:00–11:59)' })).toBeInTheDocument();
    cleanup();

    stubFetch((called) => {
      if (called === '/api/profile') return { json: { ...profile, locale: 'en-US' } };
      if (called === '/api/flights/search') {
        return { json: { searchId: 's', currency: 'GBP', offers: [nonstopEvening, cheapOneStop] } };
      }
      return { json: { items: [] } };
    });
    renderApp(<FlightsPage />, { url });
    await screen.findAllByRole('article');
    const filters = screen.getByRole('complementary', { name: 'Filters' });
    expect(within(filters).getByRole('checkbox', { name: 'Night (12:00 AM–5:59 AM)' })).toBeInTheDocument();
    expect(within(filters).getByRole('checkbox', { name: 'Morning (6:00 AM–11:59 AM)' })).toBeInTheDocument();
    expect(within(filters).getByRole('checkbox', { name: 'Evening (6:00 PM–11:59 PM)' })).toBeInTheDocument();
  });

  it('shows a server validation problem at the field it names', async () => {
    stubFlights(() => ({
      status: 422,
      json: envelope('VALIDATION_ERROR', 'FIX_INPUT', {
        details: [{ field: 'itinerary.0.date', code: 'less_than_equal', message: 'too far ahead' }],
      }),
    }));
    renderApp(<FlightsPage />, { url });
    expect(await screen.findByRole('heading', { name: 'Some details need a fix' })).toBeInTheDocument();
    const date = await screen.findByRole('group', { name: 'Date' });
    for (const segment of within(date).getAllByRole('spinbutton')) {
      expect(segment).toHaveAttribute('aria-invalid', 'true');
    }
  });

  it('still searches when the profile cannot be read, and reads the profile only once', async () => {
    const fetchMock = stubFetch((called) => {
      if (called === '/api/profile') {
        return {
          status: 429,
          json: envelope('RATE_LIMIT_EXCEEDED', 'RETRY_LATER', { retryAfterSeconds: 30 }),
        };
      }
      if (called === '/api/flights/search')
        return { json: { searchId: 's', currency: 'EUR', offers: [cheapOneStop] } };
      return { json: { items: [] } };
    });
    renderApp(<FlightsPage />, { url });
    expect(await screen.findByRole('article', { name: /Skylark/ })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([called]) => called === '/api/profile')).toHaveLength(1);
    expect(fetchMock.mock.calls.filter(([called]) => called === '/api/flights/search')).toHaveLength(1);
  });
});

describe('FlightsPage with a return search', () => {
  const back = addDays(date, 7);
  const returnUrl = `/flights?trip=return&leg=LHR.JFK.${date}&leg=JFK.LHR.${back}&adults=1&cabin=economy`;
  const roundTrip = offer(
    'round-trip',
    700,
    [
      nonstopLeg(polaris, lhr, jfk, `${date}T10:00:00+00:00`, `${date}T13:00:00-05:00`, 480),
      nonstopLeg(skylark, jfk, lhr, `${back}T18:00:00-05:00`, `${addDays(back, 1)}T06:00:00+00:00`, 420),
    ],
    [polaris, skylark],
  );

  /** The leg of the one offer shown that is named `name`, with the airports it flies from and to. */
  async function legNamed(name: string): Promise<string[]> {
    const card = await screen.findByRole('article', { name: /Polaris Airways, Skylark Airlines/ });
    const leg = within(card).getByRole('group', { name });
    return within(leg)
      .getAllByText(/^[A-Z]{3}$/)
      .map((code) => code.textContent ?? '');
  }

  it('names the way out and the way back on every offer, so each is told apart', async () => {
    stubFlights(() => ({ json: { searchId: 's', currency: 'GBP', offers: [roundTrip] } }));
    renderApp(<FlightsPage />, { url: returnUrl });
    expect(await legNamed('Outbound flight')).toEqual(['LHR', 'JFK']);
    expect(await legNamed('Return flight')).toEqual(['JFK', 'LHR']);
    expect(screen.getByText('Return flight')).toBeVisible();
  });

  it('names them in Spanish for a Spanish traveler', async () => {
    activateSpanishForTests();
    stubFetch((url) => {
      if (url === '/api/profile') return { json: { ...profile, locale: 'es-ES' } };
      if (url === '/api/flights/search')
        return { json: { searchId: 's', currency: 'GBP', offers: [roundTrip] } };
      return { json: { items: [] } };
    });
    renderApp(<FlightsPage />, { url: returnUrl });
    expect(await legNamed('Vuelo de ida')).toEqual(['LHR', 'JFK']);
    expect(await legNamed('Vuelo de vuelta')).toEqual(['JFK', 'LHR']);
  });

  it('gives the one leg of a one-way offer no name of its own', async () => {
    stubFlights(() => ({ json: { searchId: 's', currency: 'GBP', offers: [nonstopEvening] } }));
    renderApp(<FlightsPage />, { url });
    const card = await screen.findByRole('article', { name: /Polaris Airways/ });
    expect(
      within(card).queryByRole('group', { name: /^(Outbound flight|Return flight|Flight \d)$/ }),
    ).toBeNull();
  });
});

describe('FlightsPage before the profile arrives', () => {
  /** The profile answers when the test sends it; every airport search at once, with none. */
  function profileWhenSent() {
    let send: (response: StubbedResponse) => void = () => undefined;
    stubFetch((called) => {
      if (called === '/api/profile') return new Promise<StubbedResponse>((resolve) => (send = resolve));
      return { json: { items: [] } };
    });
    return (response: StubbedResponse) => send(response);
  }

  it('keeps what the traveler typed and fills only the untouched origin with the home airport', async () => {
    const sendProfile = profileWhenSent();
    renderApp(<FlightsPage />, { url: '/flights' });
    const to = screen.getByRole('combobox', { name: 'To' });
    await userEvent.type(to, 'Par');

    sendProfile({ json: profile });
    // The "To" suggestions are open, so the rest of the page is hidden from the accessibility tree.
    const field = (name: string) => screen.getByRole('combobox', { name, hidden: true });
    await waitFor(() => expect(field('From')).toHaveValue('LHR'));
    expect(field('To')).toHaveValue('Par');
    expect(field('To')).toBe(to);
  });

  it('leaves an origin the traveler started typing alone when the profile arrives', async () => {
    const sendProfile = profileWhenSent();
    const { queryClient } = renderApp(<FlightsPage />, { url: '/flights' });
    await userEvent.type(screen.getByRole('combobox', { name: 'From' }), 'Edi');

    sendProfile({ json: profile });
    await waitFor(() => expect(queryClient.getQueryData(profileQueries.current().queryKey)).toBeDefined());
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveValue('Edi');
  });

  it('leaves the empty origin to a traveler who is in it when the profile arrives', async () => {
    const sendProfile = profileWhenSent();
    const { queryClient } = renderApp(<FlightsPage />, { url: '/flights' });
    const from = screen.getByRole('combobox', { name: 'From' });
    await userEvent.click(from);

    sendProfile({ json: profile });
    await waitFor(() => expect(queryClient.getQueryData(profileQueries.current().queryKey)).toBeDefined());
    // The home airport written in under the cursor would open the suggestions as the traveler starts.
    expect(from).toHaveValue('');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('FlightsPage after a search', () => {
  const airports: Record<string, unknown> = {
    LHR: { ...lhr, country: 'United Kingdom', countryCode: 'GB', latitude: 51.47, longitude: -0.45 },
    JFK: { ...jfk, country: 'United States', countryCode: 'US', latitude: 40.64, longitude: -73.78 },
  };
  function stubSearchAndAirports() {
    return stubFetch((called) => {
      if (called === '/api/profile') return { json: profile };
      if (called === '/api/flights/search')
        return { json: { searchId: 's', currency: 'GBP', offers: [cheapOneStop] } };
      const asked = new URL(called, 'http://localhost');
      const code = asked.pathname === '/api/flights/airports' ? (asked.searchParams.get('query') ?? '') : '';
      return { json: { items: airports[code] ? [airports[code]] : [] } };
    });
  }

  it('names the airports of a link by city and airport, never by the bare code', async () => {
    const fetchMock = stubSearchAndAirports();
    renderApp(<FlightsPage />, { url });
    await screen.findByRole('article', { name: /Skylark/ });
    await userEvent.click(screen.getByRole('button', { name: 'Edit search' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'From' })).toHaveValue('London · Heathrow (LHR)'),
    );
    // Named before the form opened: no suggestion list pops open under the traveler's cursor.
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'To' })).toHaveValue('New York · John F. Kennedy (JFK)');
    // Only the codes were looked up: an airport's shown name is not a search.
    const asked = fetchMock.mock.calls
      .map(([called]) => new URL(typeof called === 'string' ? called : '/', 'http://localhost'))
      .filter((called) => called.pathname === '/api/flights/airports')
      .map((called) => called.searchParams.get('query'));
    expect(new Set(asked)).toEqual(new Set(['LHR', 'JFK']));
  });

  it('moves focus to the results heading after Search', async () => {
    stubSearchAndAirports();
    renderApp(<FlightsPage />, { url });
    await screen.findByRole('article', { name: /Skylark/ });
    await userEvent.click(screen.getByRole('button', { name: 'Edit search' }));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Cabin' }), 'business');
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: /^Flights LHR → JFK/ })).toHaveFocus(),
    );
  });

  it('says what it changed in a link with no adults, and which dates of a link have passed', async () => {
    stubSearchAndAirports();
    renderApp(<FlightsPage />, {
      url: `/flights?trip=one-way&leg=LHR.JFK.2020-03-03&adults=0&cabin=economy`,
    });
    const notice = await screen.findByRole('status', { name: '' });
    expect(notice).toHaveTextContent(
      'The link asked for 0 adults: the search is for 1 adult (1 to 9 travel on one search).',
    );
    // The date is written in the profile's locale (en-GB) once the profile is read.
    await waitFor(() =>
      expect(notice).toHaveTextContent(
        "The link's date 3 March 2020 has passed: choose a new date and search again.",
      ),
    );
    expect(screen.getByLabelText('Adults')).toHaveValue('1');
  });
});
