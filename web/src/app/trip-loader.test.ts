// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { testQueryClient } from '../test-support/render-app.tsx';
import { stubFetch } from '../test-support/stub-fetch.ts';
import { tripLoader } from './trip-loader.ts';

const TRAVELER = {
  authenticated: true,
  kind: 'traveler',
  traveler: { id: 'alex', name: 'Alex Morgan', email: 'alex@wayfare.example' },
};
const SIGNED_OUT = { authenticated: false };

/** Every request the app makes, answered: the session as given, anything else empty. */
function stubApp(session: unknown) {
  const fetchMock = stubFetch((url) => (url === '/api/session' ? { json: session } : { json: {} }));
  return () => fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
}

const load = (tripId: string) =>
  tripLoader(testQueryClient())({
    params: { tripId },
    request: new Request('http://localhost/'),
  } as unknown as LoaderFunctionArgs);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a trip page’s loader', () => {
  it('asks for the trip while the page’s code loads', async () => {
    const asked = stubApp(TRAVELER);
    expect(await load('trip-1')).toBeNull();
    await vi.waitFor(() => expect(asked()).toEqual(['/api/session', '/api/trips/trip-1']));
  });

  it('asks for no trip when no one is signed in: the signed-in part’s own loader sends them to sign in', async () => {
    const asked = stubApp(SIGNED_OUT);
    expect(await load('trip-1')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked()).toEqual(['/api/session']);
  });
});
