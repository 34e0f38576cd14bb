// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BookingsPage } from './bookings-page.tsx';
import { todayIsoDate } from '../../lib/intl-format.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';
import { typeDate } from '../../test-support/type-date.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  activateEnglishForTests();
});

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function booking(n: number, status: string, vertical = 'flight') {
  return {
    bookingId: uuid(n),
    reference: `REF${String(n).padStart(3, '0')}`,
    vertical,
    status,
    title: `Trip ${n}`,
    startDate: '2026-12-01',
    endDate: '2026-12-03',
    tripId: uuid(900),
    segmentId: uuid(800 + n),
    location: { city: 'Paris', countryCode: 'FR' },
    totalPrice: { amount: 100 + n, currency: 'EUR' },
    bookingProfile: n % 2 === 0,
    bookedAt: '2026-10-01T10:00:00Z',
  };
}

function stubBookings(items: unknown[], meta: { totalCount: number; nextOffset: number | null }) {
  return stubFetch((url) => {
    if (url.startsWith('/api/bookings')) return { json: { items, meta: { ...meta, pageSize: 20 } } };
    return {
      status: 404,
      json: {
        error: {
          code: 'RESOURCE_NOT_FOUND',
          message: 'x',
          details: [],
          recoveryAction: 'CHANGE_SELECTION',
          retryAfterSeconds: null,
        },
      },
    };
  });
}

describe('BookingsPage', () => {
  it('lists bookings with status chips, the total count and paging that lives in the URL', async () => {
    const fetchMock = stubBookings([booking(1, 'confirmed'), booking(2, 'cancelled', 'stay')], {
      totalCount: 42,
      nextOffset: 20,
    });
    const { router } = renderApp(<BookingsPage />, { url: '/bookings?status=confirmed,cancelled' });

    expect(await screen.findAllByRole('article')).toHaveLength(2);
    const list = screen.getByRole('list', { name: 'Bookings' });
    expect(screen.getByText('42 bookings')).toBeInTheDocument();
    expect(within(list).getByText('Confirmed')).toBeInTheDocument();
    expect(within(list).getByText('Cancelled')).toBeInTheDocument();
    expect(within(list).getAllByRole('link', { name: 'Trip details and live status' })[0]).toHaveAttribute(
      'href',
      `/trips/${uuid(900)}/segment/${uuid(801)}`,
    );
    expect(within(list).getAllByRole('link', { name: /^Whole trip/ })[0]).toHaveAttribute(
      'href',
      `/trips/${uuid(900)}`,
    );
    // The list leads with upcoming travel: what ends today or later, soonest first.
    expect(
      fetchMock.mock.calls.find(([url]) => typeof url === 'string' && url.startsWith('/api/bookings'))?.[0],
    ).toBe(
      `/api/bookings?limit=20&offset=0&endFrom=${todayIsoDate()}&sort=startDate&status=confirmed%2Ccancelled`,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(router.state.location.search).toBe('?status=confirmed%2Ccancelled&offset=20');
    // The new page's top takes focus, its heading naming the range.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Bookings 21–22 of 42' })).toHaveFocus());
  });

  it('in Spanish, names each booking and its cities as the travel API names them in Spanish', async () => {
    activateSpanishForTests();
    const london = { city: 'London', cityNames: { en: 'London', es: 'Londres' } };
    const athens = { city: 'Athens', cityNames: { en: 'Athens', es: 'Atenas' } };
    stubBookings(
      [
        {
          ...booking(1, 'confirmed', 'flight'),
          title: 'London → Athens',
          location: { city: 'Athens', countryCode: null, cityNames: athens.cityNames },
          route: [london, athens],
        },
        {
          ...booking(2, 'confirmed', 'rail'),
          title: 'Athens → London and back',
          location: { city: 'London', countryCode: null, cityNames: london.cityNames },
          route: [athens, london, athens],
        },
        {
          ...booking(3, 'confirmed', 'stay'),
          title: 'Grand Hotel London',
          location: { city: 'London', countryCode: 'GB', cityNames: london.cityNames },
        },
      ],
      { totalCount: 3, nextOffset: null },
    );
    renderApp(<BookingsPage />, { url: '/bookings' });

    const cards = await screen.findAllByRole('article');
    expect(within(cards[0]!).getByRole('heading').textContent).toBe('Londres → Atenas');
    expect(within(cards[1]!).getByRole('heading').textContent).toBe('Atenas → Londres, ida y vuelta');
    expect(within(cards[2]!).getByRole('heading').textContent).toBe('Grand Hotel London');
    const places = cards.map(
      (card) =>
        within(card)
          .getByText(/\d{4} · /)
          .textContent?.split(' · ')[1],
    );
    expect(places).toEqual(['Atenas', 'Londres', 'Londres']);
    // The hotel's own name is the one English left.
    expect(document.body.textContent?.replaceAll('Grand Hotel London', '')).not.toMatch(/London|Athens/);
  });

  it('shows past travel latest first, or all of it, and business or personal travel only', async () => {
    const fetchMock = stubBookings([booking(1, 'completed')], { totalCount: 1, nextOffset: null });
    const { router } = renderApp(<BookingsPage />, { url: '/bookings' });
    await screen.findAllByRole('article');
    await userEvent.click(screen.getByRole('radio', { name: 'Past' }));
    expect(router.state.location.search).toBe('?when=past');
    await userEvent.click(screen.getByRole('radio', { name: 'Business' }));
    expect(router.state.location.search).toBe('?when=past&travel=business');
    await screen.findAllByRole('article');
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe(
      `/api/bookings?limit=20&offset=0&endBefore=${todayIsoDate()}&travel=business`,
    );
    await userEvent.click(screen.getByRole('radio', { name: 'All' }));
    await screen.findAllByRole('article');
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe('/api/bookings?limit=20&offset=0&travel=business');
  });

  it('a filter change goes back to the first page and into the URL', async () => {
    stubBookings([booking(1, 'confirmed')], { totalCount: 1, nextOffset: null });
    const { router } = renderApp(<BookingsPage />, { url: '/bookings?offset=40' });
    await screen.findAllByRole('article');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Stay' }));
    expect(router.state.location.search).toBe('?vertical=stay');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('filters by the start dates typed into the date fields', async () => {
    const fetchMock = stubBookings([booking(1, 'confirmed')], { totalCount: 1, nextOffset: null });
    const { router } = renderApp(<BookingsPage />, { url: '/bookings?when=all' });
    await screen.findAllByRole('article');
    await typeDate(screen.getByRole('group', { name: 'From' }), '2026-12-01');
    await waitFor(() => expect(router.state.location.search).toBe('?when=all&from=2026-12-01'));
    await typeDate(screen.getByRole('group', { name: 'To' }), '2026-12-31');
    await waitFor(() => expect(router.state.location.search).toBe('?when=all&from=2026-12-01&to=2026-12-31'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.at(-1)?.[0]).toBe(
        '/api/bookings?limit=20&offset=0&from=2026-12-01&to=2026-12-31',
      ),
    );
  });

  it('says which filters found nothing, and clears them', async () => {
    stubBookings([], { totalCount: 0, nextOffset: null });
    const { router } = renderApp(<BookingsPage />, {
      url: '/bookings?status=pending&vertical=car&from=2026-01-01',
    });
    expect(
      await screen.findByRole('heading', { name: /No pending car bookings starting on or after/ }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(router.state.location.search).toBe('');
  });

  it('with no filters and no bookings, invites a first search', async () => {
    stubBookings([], { totalCount: 0, nextOffset: null });
    renderApp(<BookingsPage />, { url: '/bookings' });
    expect(await screen.findByRole('heading', { name: 'No bookings yet' })).toBeInTheDocument();
  });
});
