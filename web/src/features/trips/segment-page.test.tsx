// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { NextTripPanel } from './next-trip-panel.tsx';
import { SegmentPage } from './segment-page.tsx';
import { TripPage } from './trip-page.tsx';
import { tripQueries } from './trip-queries.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { envelope, stubFetch } from '../../test-support/stub-fetch.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  activateEnglishForTests();
});

const tripId = '00000000-0000-4000-8000-000000000900';
const segmentId = '00000000-0000-4000-8000-000000000801';

const segment = {
  segmentId,
  tripId,
  kind: 'flight',
  title: 'Denver → Frankfurt',
  status: 'DELAYED',
  origin: { code: 'DEN', name: 'Denver International', city: 'Denver', timeZone: 'America/Denver' },
  destination: { code: 'FRA', name: 'Frankfurt am Main', city: 'Frankfurt', timeZone: 'Europe/Berlin' },
  scheduledDeparture: '2026-11-23T18:25:00-07:00',
  scheduledArrival: '2026-11-24T12:50:00+01:00',
  estimatedDeparture: '2026-11-23T19:10:00-07:00',
  estimatedArrival: '2026-11-24T13:35:00+01:00',
  delayMinutes: 45,
  carrier: { code: 'AU', name: 'Aurora Airlines' },
  serviceNumber: 'AU 1555',
  terminal: 'B',
  gate: null,
  seat: '14C',
  bookingReference: 'ABC123',
  updatedAt: new Date().toISOString(),
  trip: { tripId, title: 'Frankfurt trip', startDate: '2026-11-23', endDate: '2026-11-25' },
};

const { trip: tripSummary, ...segmentOnly } = segment;
const stay = {
  ...segmentOnly,
  segmentId: '00000000-0000-4000-8000-000000000802',
  kind: 'stay',
  title: 'Grand Hotel Frankfurt',
  status: 'SCHEDULED',
  origin: { code: null, name: 'Grand Hotel Frankfurt', city: 'Frankfurt', timeZone: 'Europe/Berlin' },
  destination: { code: null, name: 'Grand Hotel Frankfurt', city: 'Frankfurt', timeZone: 'Europe/Berlin' },
  scheduledDeparture: '2026-11-24T13:50:00+01:00',
  scheduledArrival: '2026-11-25T11:00:00+01:00',
  estimatedDeparture: '2026-11-24T13:50:00+01:00',
  estimatedArrival: '2026-11-25T11:00:00+01:00',
  delayMinutes: 0,
  carrier: null,
  serviceNumber: null,
  terminal: null,
  gate: null,
  seat: null,
  bookingReference: 'HTL777',
  address: '12 Market Street, Frankfurt',
};
const trip = {
  ...tripSummary,
  status: 'DISRUPTED',
  cities: ['Frankfurt'],
  segmentKinds: ['flight', 'stay'],
  disruptedSegments: 1,
  segments: [segmentOnly, stay],
};

/**
 * The trip four years on, its flight delayed into the night so the hotel is at risk: a flight still to
 * depart is one the app offers to replace.
 */
function brokenLater() {
  const later = (time: string) => time.replace('2026-', '2030-');
  const late = {
    ...segmentOnly,
    scheduledDeparture: later(segmentOnly.scheduledDeparture),
    scheduledArrival: later(segmentOnly.scheduledArrival),
    estimatedArrival: '2030-11-24T23:35:00+01:00',
    estimatedDeparture: '2030-11-24T05:10:00-07:00',
    delayMinutes: 645,
  };
  const hotel = {
    ...stay,
    scheduledDeparture: later(stay.scheduledDeparture),
    scheduledArrival: later(stay.scheduledArrival),
    estimatedDeparture: later(stay.estimatedDeparture),
    estimatedArrival: later(stay.estimatedArrival),
  };
  return { late, hotel };
}

describe('SegmentPage', () => {
  it('shows a delay as the old time struck through beside the new one, in the airport’s local time', async () => {
    stubFetch((url) =>
      url === `/api/trips/${tripId}/segments/${segmentId}`
        ? { json: segment }
        : url === `/api/trips/${tripId}`
          ? { json: trip }
          : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    expect(await screen.findByRole('heading', { name: 'Denver → Frankfurt', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Delayed')).toBeInTheDocument();
    const schedule = screen.getByRole('region', { name: 'Schedule' });
    const struck = schedule.querySelectorAll('del');
    expect([...struck].map((element) => element.textContent)).toEqual([
      'Scheduled 6:25 PM',
      'Scheduled 12:50 PM',
    ]);
    const now = schedule.querySelectorAll('ins');
    expect([...now].map((element) => element.textContent)).toEqual([', now 7:10 PM', ', now 1:35 PM']);
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getAllByText('Not announced yet')).toHaveLength(1);
    expect(within(details).getByText('14C')).toBeInTheDocument();
  });

  it('a delay into the next day names both days, and the flight stays under the day it was scheduled for', async () => {
    const nextDay = {
      ...segmentOnly,
      estimatedDeparture: '2026-11-24T13:45:00-07:00',
      estimatedArrival: '2026-11-25T08:10:00+01:00',
      delayMinutes: 1160,
    };
    stubFetch((url) =>
      url === `/api/trips/${tripId}/segments/${segmentId}`
        ? { json: { ...nextDay, trip: tripSummary } }
        : url === `/api/trips/${tripId}`
          ? { json: { ...trip, segments: [nextDay, stay] } }
          : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    const schedule = await screen.findByRole('region', { name: 'Schedule' });
    const plain = (elements: NodeListOf<Element>) =>
      [...elements].map((element) => element.textContent?.replace(/\s/g, ' '));
    expect(plain(schedule.querySelectorAll('del'))).toEqual([
      'Scheduled Mon, Nov 23, 6:25 PM',
      'Scheduled Tue, Nov 24, 12:50 PM',
    ]);
    expect(plain(schedule.querySelectorAll('ins'))).toEqual([
      ', now Tue, Nov 24, 1:45 PM',
      ', now Wed, Nov 25, 8:10 AM',
    ]);

    const timeline = await screen.findByRole('list', { name: 'Trip timeline' });
    const days = within(timeline)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(days).toEqual(['Mon, Nov 23, 2026', 'Tue, Nov 24, 2026']);
    const [underMonday] = [...timeline.children].filter(
      (item, index, items) => items[index - 1]?.textContent === 'Mon, Nov 23, 2026',
    );
    expect(underMonday).toHaveAccessibleName('Denver → Frankfurt');
  });

  it('shows the whole trip below, with the hotel the delay now makes late marked at risk', async () => {
    const late = {
      ...segmentOnly,
      estimatedArrival: '2026-11-24T23:35:00+01:00',
      estimatedDeparture: '2026-11-24T05:10:00-07:00',
      delayMinutes: 645,
    };
    stubFetch((url) =>
      url === `/api/trips/${tripId}/segments/${segmentId}`
        ? { json: { ...late, trip: tripSummary } }
        : url === `/api/trips/${tripId}`
          ? { json: { ...trip, segments: [late, stay] } }
          : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    const timeline = await screen.findByRole('list', { name: 'Trip timeline' });
    const hotel = within(timeline).getByRole('listitem', { name: 'Grand Hotel Frankfurt' });
    expect(within(hotel).getByRole('note')).toHaveTextContent(
      'At risk: Denver → Frankfurt now arrives at 11:35 PM, so you reach the hotel after midnight.',
    );
    expect(within(hotel).getByText('12 Market Street, Frankfurt')).toBeInTheDocument();
    expect(within(hotel).getByText('HTL777')).toBeInTheDocument();
    expect(within(hotel).getByText('Check-in')).toBeInTheDocument();
    expect(within(hotel).queryByText('Gate')).toBeNull();
    const flight = within(timeline).getByRole('listitem', { name: 'Denver → Frankfurt' });
    expect(flight).toHaveAttribute('aria-current', 'location');
  });

  it('on the page of a flight whose delay breaks the trip (where its toast leads), its other flights are open', async () => {
    const { late, hotel } = brokenLater();
    stubFetch((url) =>
      url === `/api/trips/${tripId}/segments/${segmentId}`
        ? { json: { ...late, trip: tripSummary } }
        : url === `/api/trips/${tripId}`
          ? { json: { ...trip, segments: [late, hotel] } }
          : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    const timeline = await screen.findByRole('list', { name: 'Trip timeline' });
    const atRisk = within(timeline).getByRole('listitem', { name: 'Grand Hotel Frankfurt' });
    expect(within(atRisk).getByRole('button', { name: 'Hide other flights' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('a stay reads as check-in and check-out, with no gate or seat', async () => {
    stubFetch((url) =>
      url === `/api/trips/${tripId}/segments/${stay.segmentId}`
        ? { json: { ...stay, trip: tripSummary } }
        : url === `/api/trips/${tripId}`
          ? { json: trip }
          : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${stay.segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    expect(
      await screen.findByRole('heading', { name: 'Grand Hotel Frankfurt', level: 1 }),
    ).toBeInTheDocument();
    const schedule = screen.getByRole('region', { name: 'Schedule' });
    expect(within(schedule).getByText('Check-in')).toBeInTheDocument();
    expect(within(schedule).getByText('Check-out')).toBeInTheDocument();
    expect(within(schedule).queryByText('Departure')).toBeNull();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('12 Market Street, Frankfurt')).toBeInTheDocument();
    expect(within(details).getByText('Confirmation')).toBeInTheDocument();
    expect(within(details).queryByText('Gate')).toBeNull();
    expect(screen.getAllByText('Confirmed').length).toBeGreaterThan(0);
  });

  it.each([
    {
      language: 'English',
      activate: activateEnglishForTests,
      words: { kind: 'Train', details: 'Details', coachAndSeat: 'Coach and seat', seat: 'Coach 4, seat 23' },
    },
    {
      language: 'Spanish',
      activate: activateSpanishForTests,
      words: {
        kind: 'Tren',
        details: 'Detalles',
        coachAndSeat: 'Coche y asiento',
        seat: 'Coche 4, asiento 23',
      },
    },
  ])(
    'in $language, a train reads as a train: its word, its icon, its coach and seat',
    async ({ activate, words }) => {
      activate();
      const train = {
        ...segmentOnly,
        segmentId: '00000000-0000-4000-8000-000000000803',
        kind: 'rail',
        title: 'Frankfurt → Cologne',
        status: 'SCHEDULED',
        origin: {
          code: null,
          name: 'Frankfurt Central Station',
          city: 'Frankfurt',
          timeZone: 'Europe/Berlin',
        },
        destination: {
          code: null,
          name: 'Cologne Central Station',
          city: 'Cologne',
          timeZone: 'Europe/Berlin',
        },
        scheduledDeparture: '2026-11-25T12:00:00+01:00',
        scheduledArrival: '2026-11-25T13:10:00+01:00',
        estimatedDeparture: '2026-11-25T12:00:00+01:00',
        estimatedArrival: '2026-11-25T13:10:00+01:00',
        delayMinutes: 0,
        carrier: { code: 'XR', name: 'Express Rail' },
        serviceNumber: 'XR 412',
        terminal: null,
        gate: null,
        seat: '23',
        coach: '4',
        bookingReference: 'RAIL42',
      };
      stubFetch((url) =>
        url === `/api/trips/${tripId}/segments/${train.segmentId}`
          ? { json: { ...train, trip: tripSummary } }
          : url === `/api/trips/${tripId}`
            ? {
                json: {
                  ...trip,
                  segments: [segmentOnly, stay, train],
                  segmentKinds: ['flight', 'stay', 'rail'],
                },
              }
            : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
      );
      renderApp(<SegmentPage />, {
        url: `/trips/${tripId}/segment/${train.segmentId}`,
        path: '/trips/:tripId/segment/:segmentId',
      });
      const heading = await screen.findByRole('heading', { name: 'Frankfurt → Cologne', level: 1 });
      const header = heading.closest('header')!;
      expect(header.querySelector('svg[data-kind="rail"]')).not.toBeNull();
      expect(header).toHaveTextContent(words.kind);
      const details = screen.getByRole('region', { name: words.details });
      expect(within(details).getByText(words.coachAndSeat)).toBeInTheDocument();
      expect(within(details).getByText(words.seat)).toBeInTheDocument();
      // In the trip's timeline below, the train has its own icon and the same words.
      const item = (
        await screen.findAllByRole('heading', { name: 'Frankfurt → Cologne', level: 4 })
      )[0]!.closest('li')!;
      expect(item.querySelector('svg[data-kind="rail"]')).not.toBeNull();
      expect(within(item).getByText(words.seat)).toBeInTheDocument();
    },
  );

  it('a segment that cannot be found says so through the error grammar', async () => {
    stubFetch(() => ({ status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') }));
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    expect(await screen.findByRole('heading', { name: 'We could not find that' })).toBeInTheDocument();
  });
});

describe('TripPage', () => {
  const openTrip = () => renderApp(<TripPage />, { url: `/trips/${tripId}`, path: '/trips/:tripId' });

  it('is busy until the trip arrives, then shows its name, its status and its whole timeline', async () => {
    const answer = Promise.withResolvers<void>();
    stubFetch(async (url) => {
      await answer.promise;
      return url === `/api/trips/${tripId}`
        ? { json: trip }
        : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') };
    });
    openTrip();
    expect(await screen.findByRole('heading', { name: 'Trip', level: 1 })).toBeInTheDocument();
    expect(document.querySelector('[aria-busy="true"]')).not.toBeNull();

    answer.resolve();
    expect(await screen.findByRole('heading', { name: 'Frankfurt trip', level: 1 })).toBeInTheDocument();
    expect(document.querySelector('[aria-busy="true"]')).toBeNull();
    const timeline = screen.getByRole('list', { name: 'Trip timeline' });
    expect(within(timeline).getByRole('listitem', { name: 'Denver → Frankfurt' })).toBeInTheDocument();
    expect(within(timeline).getByRole('listitem', { name: 'Grand Hotel Frankfurt' })).toBeInTheDocument();
  });

  it('redraws the timeline when the trip changes (a live update), with the news in it', async () => {
    let current = trip;
    stubFetch((url) =>
      url === `/api/trips/${tripId}`
        ? { json: current }
        : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    const { queryClient } = openTrip();
    const timeline = await screen.findByRole('list', { name: 'Trip timeline' });
    expect(within(timeline).queryByRole('note')).toBeNull();

    const late = {
      ...segmentOnly,
      estimatedArrival: '2026-11-24T23:35:00+01:00',
      estimatedDeparture: '2026-11-24T05:10:00-07:00',
      delayMinutes: 645,
    };
    current = { ...trip, segments: [late, stay] };
    await queryClient.invalidateQueries({ queryKey: tripQueries.trip(tripId).queryKey });
    const hotel = await within(screen.getByRole('list', { name: 'Trip timeline' })).findByRole('listitem', {
      name: 'Grand Hotel Frankfurt',
    });
    expect(await within(hotel).findByRole('note')).toHaveTextContent('At risk:');
  });

  it('says what failed when the trip cannot be loaded, and offers to try again', async () => {
    stubFetch(() => ({ status: 503, json: envelope('SERVICE_UNAVAILABLE', 'RETRY') }));
    openTrip();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Trip', level: 1 })).toBeInTheDocument();
  });
});

describe('NextTripPanel: home’s next trip', () => {
  it('offers other flights under its at-risk note, for the flight whose delay breaks the trip', async () => {
    const { late, hotel } = brokenLater();
    const upcoming = { ...tripSummary, startDate: '2030-11-23', endDate: '2030-11-25' };
    const { segments: _segments, ...overview } = trip;
    stubFetch((url) =>
      url.startsWith('/api/trips?')
        ? {
            json: {
              items: [{ ...overview, ...upcoming }],
              meta: { totalCount: 1, pageSize: 100, nextOffset: null },
            },
          }
        : url === `/api/trips/${tripId}`
          ? { json: { ...trip, ...upcoming, segments: [late, hotel] } }
          : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<NextTripPanel />);
    const card = await screen.findByRole('region', { name: 'Frankfurt trip' });
    expect(await within(card).findByRole('note')).toHaveTextContent('At risk:');
    const button = within(card).getByRole('button', { name: 'See other flights' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
