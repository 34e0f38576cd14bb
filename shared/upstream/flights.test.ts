import { describe, expect, it } from 'vitest';
import { FlightOfferSchema, FlightSearchRequestSchema } from './flights.ts';

const leg = { origin: 'lhr', destination: 'JFK', date: '2026-12-01' };

describe('flight search request', () => {
  it('accepts legs, adults and a cabin class, upper-casing codes and defaulting optional fields', () => {
    expect(
      FlightSearchRequestSchema.parse({
        itinerary: [leg],
        passengers: { adults: 1 },
        cabinClass: 'premium_economy',
      }),
    ).toEqual({
      itinerary: [{ origin: 'LHR', destination: 'JFK', date: '2026-12-01' }],
      passengers: { adults: 1, children: 0, infants: 0 },
      cabinClass: 'premium_economy',
      currency: 'EUR',
    });
  });

  it('rejects fewer than one adult, an unknown cabin, the same origin and destination, and legs out of order', () => {
    const result = FlightSearchRequestSchema.safeParse({
      itinerary: [leg, { origin: 'JFK', destination: 'JFK', date: '2026-11-01' }],
      passengers: { adults: 0 },
      cabinClass: 'steerage',
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining(['passengers.adults', 'cabinClass', 'itinerary.1.destination']),
    );
  });

  it('rejects more infants than adults', () => {
    const result = FlightSearchRequestSchema.safeParse({
      itinerary: [leg],
      passengers: { adults: 1, infants: 2 },
      cabinClass: 'economy',
    });
    expect(result.error?.issues[0]?.path).toEqual(['passengers', 'infants']);
  });
});

describe('flight offer', () => {
  it('tolerates fields a later /v1 adds', () => {
    const airport = { code: 'LHR', name: 'Heathrow', city: 'London', timeZone: 'Europe/London' };
    const segment = {
      carrier: { code: 'WF', name: 'Wayfare Air' },
      flightNumber: 'WF 1',
      origin: airport,
      destination: airport,
      departureTime: 't',
      arrivalTime: 't',
      durationMinutes: 1,
      aircraft: 'A320',
      cabinClass: 'economy',
      wifi: true,
    };
    const offer = {
      offerId: 'o',
      cabinClass: 'economy',
      totalPrice: { amount: 1, currency: 'EUR' },
      pricePerAdult: { amount: 1, currency: 'EUR' },
      carriers: [],
      seatsLeft: 1,
      fareConditions: { refundable: false, changeable: false },
      expiresAt: '2026-12-01T00:00:00Z',
      co2Kg: 120,
      legs: [
        {
          origin: airport,
          destination: airport,
          departureTime: 't',
          arrivalTime: 't',
          durationMinutes: 1,
          stops: 0,
          segments: [segment],
        },
      ],
    };
    expect(FlightOfferSchema.parse(offer)).toMatchObject({ co2Kg: 120 });
  });
});
