import type { Segment } from '../upstream/trips.ts';

/** A flight 6 h 20 min late, as a delay notification's facts carry it: CL 2568, Boston → Seattle. */
export const DELAYED_FLIGHT: Segment = {
  segmentId: '00000000-0000-4000-8000-000000000001',
  tripId: '00000000-0000-4000-8000-000000000000',
  kind: 'flight',
  title: 'Boston → Seattle',
  status: 'DELAYED',
  origin: { code: 'BOS', name: 'Logan', city: 'Boston', timeZone: 'America/New_York' },
  destination: { code: 'SEA', name: 'Seattle-Tacoma', city: 'Seattle', timeZone: 'America/Los_Angeles' },
  scheduledDeparture: '2026-12-01T09:40:00-05:00',
  scheduledArrival: '2026-12-01T12:55:00-08:00',
  estimatedDeparture: '2026-12-01T16:00:00-05:00',
  estimatedArrival: '2026-12-01T19:15:00-08:00',
  delayMinutes: 380,
  carrier: { code: 'CL', name: 'Cloudline' },
  serviceNumber: 'CL 2568',
  terminal: 'B',
  gate: 'C31',
  seat: '14C',
  bookingReference: 'ABC123',
  updatedAt: '2026-11-30T00:00:00Z',
};

/** London's names by language, as the travel API names a place's city. */
export const LONDON = {
  code: 'LHR',
  name: 'Heathrow',
  city: 'London',
  timeZone: 'Europe/London',
  cityNames: { en: 'London', es: 'Londres' },
};
