// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { SegmentPage } from './segment-page.tsx';
import { renderApp } from '../../test-support/render-app.tsx';
import { envelope, stubFetch } from '../../test-support/stub-fetch.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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

describe('SegmentPage', () => {
  it('shows a delay as the old time struck through beside the new one, in the airport’s local time', async () => {
    stubFetch((url) =>
      url === `/api/trips/${tripId}/segments/${segmentId}`
        ? { json: segment }
        : { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') },
    );
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    expect(await screen.findByRole('heading', { name: 'Denver → Frankfurt', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Delayed')).toBeInTheDocument();
    const struck = document.querySelectorAll('del');
    expect([...struck].map((element) => element.textContent)).toEqual([
      'Scheduled 6:25 PM',
      'Scheduled 12:50 PM',
    ]);
    const now = document.querySelectorAll('ins');
    expect([...now].map((element) => element.textContent)).toEqual([', now 7:10 PM', ', now 1:35 PM']);
    expect(screen.getByText('Not announced yet')).toBeInTheDocument();
    expect(screen.getByText('14C')).toBeInTheDocument();
  });

  it('a segment that cannot be found says so through the error grammar', async () => {
    stubFetch(() => ({ status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') }));
    renderApp(<SegmentPage />, {
      url: `/trips/${tripId}/segment/${segmentId}`,
      path: '/trips/:tripId/segment/:segmentId',
    });
    expect(await screen.findByRole('heading', { name: 'We could not find that' })).toBeInTheDocument();
  });
});
