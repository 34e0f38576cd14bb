// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';
import { TripsPage, tripWhen } from './trips-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const today = todayIsoDate();
const trip = (n: number, startDays: number, endDays: number, status = 'ON_TRACK', disrupted = 0) => ({
  tripId: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Trip ${n}`,
  startDate: addDays(today, startDays),
  endDate: addDays(today, endDays),
  status,
  cities: [`City ${n}`],
  segmentKinds: ['flight', 'stay', 'car', 'flight'],
  disruptedSegments: disrupted,
});

describe('tripWhen', () => {
  it.each([
    [trip(1, -3, 2), 'in-progress'],
    [trip(2, 0, 0), 'in-progress'],
    [trip(3, 1, 4), 'upcoming'],
    [trip(4, -9, -1), 'past'],
    [trip(5, -2, 3, 'COMPLETED'), 'past'],
  ])('%#: %o is %s', (item, expected) => {
    expect(tripWhen(item, today)).toBe(expected);
  });
});

describe('TripsPage', () => {
  it('groups trips into in progress, upcoming and past (latest first), each card with dates, places and status', async () => {
    const items = [trip(1, -30, -25), trip(2, -10, -5), trip(3, -1, 2, 'DISRUPTED', 1), trip(4, 5, 9)];
    stubFetch(() => ({ json: { items, meta: { totalCount: 4, pageSize: 100, nextOffset: null } } }));
    renderApp(<TripsPage />, { url: '/trips', path: '/trips' });

    const current = await screen.findByRole('region', { name: 'In progress' });
    expect(within(current).getByRole('link', { name: 'City 3 trip' })).toHaveAttribute(
      'href',
      `/trips/${items[2]?.tripId}`,
    );
    expect(within(current).getByText('Disrupted · 1 change')).toBeInTheDocument();
    expect(within(current).getByText('City 3 · 2 flights, 1 stay, 1 car')).toBeInTheDocument();
    const upcoming = screen.getByRole('region', { name: 'Upcoming' });
    expect(
      within(upcoming)
        .getAllByRole('article')
        .map((card) => card.getAttribute('aria-labelledby')),
    ).toEqual([`trip-${items[3]?.tripId}`]);
    const past = screen.getByRole('region', { name: 'Past' });
    expect(
      within(past)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['City 2 trip', 'City 1 trip']);
  });
});
