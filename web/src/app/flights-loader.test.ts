// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { addDays, todayIsoDate } from '../lib/intl-format.ts';
import { testQueryClient } from '../test-support/render-app.tsx';
import { stubFetch } from '../test-support/stub-fetch.ts';
import { flightsLoader } from './flights-loader.ts';

const TRAVELER = {
  authenticated: true,
  kind: 'traveler',
  traveler: { id: 'alex', name: 'Alex Morgan', email: 'alex@wayfare.example' },
};
const PROFILE = { locale: 'en-GB', currency: 'EUR', homeAirport: 'LHR' };

/** Every request the app makes, answered: the session as given, the profile, anything else empty. */
function stubApp(session: unknown) {
  const fetchMock = stubFetch((url) =>
    url === '/api/session' ? { json: session } : url === '/api/profile' ? { json: PROFILE } : { json: {} },
  );
  return () =>
    fetchMock.mock.calls.map(([input, init]) => {
      const url = typeof input === 'string' ? input : '';
      return typeof init?.body === 'string' ? `${url} ${init.body}` : url;
    });
}

const load = (url: string) =>
  flightsLoader(testQueryClient())({
    params: {},
    request: new Request(new URL(url, 'http://localhost')),
  } as unknown as LoaderFunctionArgs);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the flights page’s loader', () => {
  const date = addDays(todayIsoDate(), 30);

  it('asks for a results link’s search, in the profile’s currency, while the page’s code loads', async () => {
    const asked = stubApp(TRAVELER);
    expect(await load(`/flights?trip=one-way&leg=LHR.JFK.${date}&adults=2&cabin=business`)).toBeNull();
    await vi.waitFor(() =>
      expect(asked()).toEqual([
        '/api/session',
        '/api/profile',
        `/api/flights/search ${JSON.stringify({
          itinerary: [{ origin: 'LHR', destination: 'JFK', date }],
          passengers: { adults: 2 },
          cabinClass: 'business',
          currency: 'EUR',
        })}`,
      ]),
    );
  });

  it('asks for no search the form would not send as it is (a date that has passed), nor for anyone signed out', async () => {
    const asked = stubApp(TRAVELER);
    await load(`/flights?trip=one-way&leg=LHR.JFK.2020-03-03&adults=1&cabin=economy`);
    await vi.waitFor(() => expect(asked()).toEqual(['/api/session', '/api/profile']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked()).toEqual(['/api/session', '/api/profile']);

    vi.unstubAllGlobals();
    const askedSignedOut = stubApp({ authenticated: false });
    await load(`/flights?trip=one-way&leg=LHR.JFK.${date}&adults=1&cabin=economy`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(askedSignedOut()).toEqual(['/api/session']);
  });
});
