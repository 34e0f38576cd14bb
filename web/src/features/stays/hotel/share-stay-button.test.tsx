// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StayPropertyDestination } from '#shared/api/destinations.ts';
import { StaysPage } from '../results/stays-page.tsx';
import { forgetFinishedSearches } from '../results/use-stay-search-run.ts';
import { PropertyPage } from './property-page.tsx';
import { destinationFromParams } from '../search/stay-search-params.ts';
import { renderApp, sse } from '../../../test-support/render-app.tsx';
import { envelope, stubFetch } from '../../../test-support/stub-fetch.ts';
import { PARIS } from '../../../test-support/stay-fixtures.ts';
import { addDays, todayIsoDate } from '../../../lib/intl-format.ts';

afterEach(() => {
  cleanup();
  forgetFinishedSearches();
  vi.unstubAllGlobals();
});

const checkIn = addDays(todayIsoDate(), 30);
const checkOut = addDays(checkIn, 2);
const searchUrl = `/stays?city=paris-fr&name=Paris&country=FR&lat=48.85&lng=2.35&checkIn=${checkIn}&checkOut=${checkOut}&rooms=2&purpose=business`;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const willow: StayPropertyDestination = {
  type: 'property',
  propertyId: 'paris-fr-h11',
  name: 'Grand Willow',
  city: 'Paris',
  countryCode: 'FR',
  latitude: 48.8612,
  longitude: 2.3391,
};

function willowEvent({ withDestination }: { withDestination: boolean }) {
  return {
    searchId: uuid(99),
    searchSolutionId: uuid(2),
    propertyId: uuid(102),
    solutionKey: 'a'.repeat(64),
    name: willow.name,
    stars: 4,
    address: '2 rue du Garden',
    city: willow.city,
    countryCode: willow.countryCode,
    latitude: willow.latitude,
    longitude: willow.longitude,
    distanceKm: 1.2,
    reviewScore: 8.4,
    reviewCount: 1200,
    amenities: ['gym'],
    thumbnail: { palette: ['#123456'], monogram: 'GW' },
    priceFrom: null,
    ...(withDestination ? { destination: willow } : {}),
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

/** A stay search and its property page; the autocomplete answers with `autocomplete`. */
function stubStays({ withDestination, autocomplete }: { withDestination: boolean; autocomplete: unknown[] }) {
  return stubFetch((url) => {
    if (url.startsWith('/api/profile')) return { json: profile };
    if (url.startsWith('/api/stays/destinations')) return { json: { items: autocomplete } };
    if (url === '/api/stays/priced-search') {
      const searchEnd = { searchId: uuid(99), propertyCount: 1, expiresAt: '2030-01-01T00:00:00Z' };
      return {
        chunks: [
          sse('property', willowEvent({ withDestination })),
          sse('search-end', { ...searchEnd, outcome: 'done' }),
          sse('done', { propertyCount: 1, priced: 0, noRooms: 0, failed: 0 }),
        ],
      };
    }
    if (url === '/api/stays/fares') return { chunks: [sse('done', { fareCount: 0 })] };
    return { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') };
  });
}

/** Searches Paris, follows the hotel's link from the results, and shares its stay. */
async function shareFromSearchResults() {
  renderApp(<StaysPage />, { url: searchUrl });
  const link = await screen.findByRole('link', { name: willow.name });
  const href = link.getAttribute('href') ?? '';
  cleanup();
  renderApp(<PropertyPage />, { url: href, path: '/stays/properties/:propertyId' });
  await userEvent.click(await screen.findByRole('button', { name: 'Share this stay' }));
}

/** The URLs the screen fetched, in order. */
function requestedUrls(fetchMock: ReturnType<typeof stubStays>): string[] {
  return fetchMock.mock.calls.map(([input]) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
  );
}

async function sharedLink(): Promise<URL> {
  const field = await screen.findByRole('textbox', { name: 'Link to this stay' });
  return new URL((field as HTMLInputElement).value);
}

describe('Sharing a stay', () => {
  it('shares a hotel by the destination its search event carries, without asking the autocomplete', async () => {
    const fetchMock = stubStays({ withDestination: true, autocomplete: [] });
    await shareFromSearchResults();

    const link = await sharedLink();
    expect(link.pathname).toBe('/share/stay');
    expect(destinationFromParams(link.searchParams)).toEqual(willow);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      checkIn,
      checkOut,
      rooms: '2',
      purpose: 'business',
    });
    expect(requestedUrls(fetchMock).filter((url) => url.startsWith('/api/stays/destinations'))).toEqual([]);
    expect(screen.queryByText(/cannot be shared/)).not.toBeInTheDocument();
  });

  it('finds the hotel in the autocomplete by city and name when the search event has no destination', async () => {
    const fetchMock = stubStays({ withDestination: false, autocomplete: [PARIS, willow] });
    await shareFromSearchResults();

    const link = await sharedLink();
    expect(destinationFromParams(link.searchParams)).toEqual(willow);
    expect(requestedUrls(fetchMock)).toContain('/api/stays/destinations?query=Paris&limit=25');
  });

  it('says so, and offers no link, when neither the search event nor the autocomplete knows the hotel', async () => {
    stubStays({ withDestination: false, autocomplete: [] });
    await shareFromSearchResults();

    expect(
      await screen.findByText('This hotel cannot be shared from here; search it by name to share it.'),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('textbox', { name: 'Link to this stay' })).not.toBeInTheDocument();
  });
});
