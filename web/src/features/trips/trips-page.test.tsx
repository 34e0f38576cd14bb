// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';
import { TripsPage, tripWhen } from './trips-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  activateEnglishForTests();
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
    [trip(6, 3, 5, 'CANCELLED'), 'cancelled'],
    [trip(7, -9, -5, 'CANCELLED'), 'cancelled'],
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

  /** The trips page over an upcoming one-day trip, a longer upcoming one and two cancelled trips. */
  function openWithCancelledTrips() {
    const items = [trip(1, -40, -38, 'CANCELLED'), trip(2, 4, 4), trip(3, 6, 9), trip(4, 8, 10, 'CANCELLED')];
    stubFetch(() => ({ json: { items, meta: { totalCount: 4, pageSize: 100, nextOffset: null } } }));
    renderApp(<TripsPage />, { url: '/trips', path: '/trips' });
    return items;
  }

  it.each([
    {
      language: 'English',
      activate: activateEnglishForTests,
      upcoming: 'Upcoming',
      cancelled: 'Cancelled',
      name: (city: string) => `${city} trip`,
    },
    {
      language: 'Spanish',
      activate: activateSpanishForTests,
      upcoming: 'Próximos',
      cancelled: 'Cancelados',
      name: (city: string) => `Viaje a ${city}`,
    },
  ])(
    'in $language, lists cancelled trips in their own section, latest first, not under upcoming',
    async (reading) => {
      reading.activate();
      openWithCancelledTrips();
      const upcoming = await screen.findByRole('region', { name: reading.upcoming });
      expect(
        within(upcoming)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual([reading.name('City 2'), reading.name('City 3')]);
      const cancelled = screen.getByRole('region', { name: reading.cancelled });
      expect(
        within(cancelled)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual([reading.name('City 4'), reading.name('City 1')]);
    },
  );

  it.each([
    { language: 'English', activate: activateEnglishForTests, locale: 'en' },
    { language: 'Spanish', activate: activateSpanishForTests, locale: 'es' },
  ])('in $language, a one-day trip shows its one date, a longer one its first and last', async (reading) => {
    reading.activate();
    const items = openWithCancelledTrips();
    const cards = await screen.findAllByRole('article');
    const dates = (tripId: string) =>
      cards.find((card) => card.getAttribute('aria-labelledby') === `trip-${tripId}`)?.querySelector('p')
        ?.textContent;
    const format = (date: string) =>
      new Intl.DateTimeFormat(reading.locale, {
        timeZone: 'UTC',
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }).format(new Date(`${date}T00:00:00Z`));
    expect(dates(items[1]!.tripId)).toBe(format(items[1]!.startDate));
    expect(dates(items[2]!.tripId)).toBe(`${format(items[2]!.startDate)} – ${format(items[2]!.endDate)}`);
  });
});
