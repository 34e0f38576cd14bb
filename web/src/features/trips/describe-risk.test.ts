import { afterEach, describe, expect, it } from 'vitest';
import type { Segment } from '#shared/api/trips.ts';
import { i18n } from '../../i18n/i18n.ts';
import { formattersFor } from '../../lib/intl-format.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import type { ConnectionRisk } from './connection-risks.ts';
import { describeRisk } from './describe-risk.ts';

afterEach(activateEnglishForTests);

const t = (id: Parameters<typeof i18n._>[0], values?: Record<string, unknown>) => i18n._(id, values);

const arrival = {
  segmentId: '00000000-0000-4000-8000-000000000001',
  tripId: '00000000-0000-4000-8000-000000000000',
  kind: 'flight',
  title: 'Denver → Frankfurt',
  status: 'DELAYED',
  origin: { code: 'DEN', name: 'Denver', city: 'Denver', timeZone: 'America/Denver' },
  destination: { code: 'FRA', name: 'Frankfurt', city: 'Frankfurt', timeZone: 'Europe/Berlin' },
  scheduledDeparture: '2026-11-24T18:25:00-07:00',
  scheduledArrival: '2026-11-25T12:50:00+01:00',
  estimatedDeparture: '2026-11-24T19:10:00-07:00',
  estimatedArrival: '2026-11-25T13:35:00+01:00',
  delayMinutes: 45,
  carrier: null,
  serviceNumber: null,
  terminal: null,
  gate: null,
  seat: null,
  bookingReference: 'ABC123',
  updatedAt: '2026-11-24T00:00:00Z',
} satisfies Segment;

const risk = (nextKind: string, availableMinutes: number, neededMinutes: number): ConnectionRisk => ({
  kind: 'short-connection',
  arrival,
  nextKind,
  availableMinutes,
  neededMinutes,
});

describe('describeRisk, a connection too short to make', () => {
  it('says the flight will be missed, the minimum connection time in words and what to do', () => {
    const text = describeRisk(risk('flight', -10, 60), formattersFor('en-US'), t);
    expect(text).toMatch(/^Denver → Frankfurt now arrives at 1:35 PM .+, after this flight leaves\. /);
    expect(text).toContain('Changing planes takes at least 1 hour');
    expect(text).toContain('ask the airline to move you to a later flight, or change this booking.');
    expect(text).not.toMatch(/\d+m\b|after this starts/);
  });

  it('names the new day when the delay moves the arrival into the next day', () => {
    const late = { ...arrival, estimatedArrival: '2026-11-26T08:10:00+01:00', delayMinutes: 1160 };
    const text = describeRisk(
      {
        kind: 'short-connection',
        arrival: late,
        nextKind: 'flight',
        availableMinutes: -10,
        neededMinutes: 60,
      },
      formattersFor('en-US'),
      t,
    );
    expect(text.replace(/\s/g, ' ')).toMatch(/^Denver → Frankfurt now arrives at Thu, Nov 26, 8:10 AM /);
  });

  it('names the time left and the time needed in words, hours and minutes together', () => {
    const text = describeRisk(risk('flight', 25, 75), formattersFor('en-GB'), t);
    expect(text).toContain('only 25 minutes before this flight leaves.');
    expect(text).toContain('at least 1 hour and 15 minutes');
  });

  it('tells a train connection and a car pick-up apart', () => {
    expect(describeRisk(risk('rail', 5, 20), formattersFor('en-GB'), t)).toContain(
      'only 5 minutes before this train leaves. Changing to this train takes at least 20 minutes: take a later train',
    );
    expect(describeRisk(risk('car', 0, 30), formattersFor('en-GB'), t)).toContain(
      'after the pick-up time. Reaching the rental desk takes at least 30 minutes',
    );
  });

  it('speaks Spanish to a Spanish traveler', () => {
    activateSpanishForTests();
    const text = describeRisk(risk('flight', 30, 60), formattersFor('es-ES'), t);
    expect(text).toContain('solo 30 minutos antes de que salga este vuelo.');
    expect(text).toContain('Cambiar de avión lleva al menos 1 hora: pide a la aerolínea');
  });
});
