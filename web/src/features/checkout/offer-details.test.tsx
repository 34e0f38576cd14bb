// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { FlightOffer } from '#shared/api/flights.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { formattersFor } from '../../lib/intl-format.ts';
import { FlightSegmentLine } from './offer-details.tsx';

type FlightSegment = FlightOffer['legs'][number]['segments'][number];

const JFK = { code: 'JFK', name: 'John F Kennedy', city: 'New York', timeZone: 'America/New_York' };
const LHR = { code: 'LHR', name: 'Heathrow', city: 'London', timeZone: 'Europe/London' };

function segment(departureTime: string, arrivalTime: string): FlightSegment {
  return {
    carrier: { code: 'TL', name: 'Trade Winds Airlines' },
    flightNumber: 'TL 2777',
    origin: JFK,
    destination: LHR,
    departureTime,
    arrivalTime,
    durationMinutes: 380,
    aircraft: 'Airbus A330-300',
    cabinClass: 'economy',
  };
}

const overnight = segment('2026-12-31T16:10:00-05:00', '2027-01-01T04:30:00+00:00');
const sameDay = segment('2026-12-31T08:00:00-05:00', '2026-12-31T20:00:00+00:00');

afterEach(() => {
  cleanup();
  activateEnglishForTests();
});

describe('a flight of an offer or a booking', () => {
  it('lands the same day: one date, after the times', () => {
    const { container } = render(<FlightSegmentLine segment={sameDay} format={formattersFor('en-GB')} />);
    expect(container).toHaveTextContent('TL 2777 JFK 8:00 → LHR 20:00, Thu 31 Dec');
  });

  it('lands the next day: each time with its own date, never a landing that reads earlier than the take-off', () => {
    const { container } = render(<FlightSegmentLine segment={overnight} format={formattersFor('en-GB')} />);
    expect(container).toHaveTextContent('TL 2777 JFK 16:10, Thu 31 Dec → LHR 4:30, Fri 1 Jan');
  });

  it('reads in Spanish with Spanish dates', () => {
    activateSpanishForTests();
    const { container } = render(<FlightSegmentLine segment={overnight} format={formattersFor('es-ES')} />);
    expect(container).toHaveTextContent('TL 2777 JFK 16:10, jue, 31 dic → LHR 4:30, vie, 1 ene');
  });
});
