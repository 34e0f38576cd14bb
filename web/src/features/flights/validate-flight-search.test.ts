import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { compileCatalog } from '../../../../scripts/precompiled-messages-plugin.ts';
import { i18n } from '../../i18n/i18n.ts';
import { messages as spanish } from '../../i18n/messages.es.ts';
import { validateFlightSearch as validate, toFlightSearchRequest } from './validate-flight-search.ts';
import {
  flightSearchFormFromParams,
  flightSearchToParams,
  legsForTripType,
  type FlightSearchForm,
} from './flight-search-params.ts';

const TODAY = '2026-11-22';

/** The problems as an English-speaking traveler in Britain reads them. */
const validateFlightSearch = (form: FlightSearchForm, today: string) =>
  validate(form, today, { t: (id, values) => i18n._(id, values), locale: 'en-GB' });
const lhr = { code: 'LHR', label: 'London Heathrow (LHR)' };
const jfk = { code: 'JFK', label: 'New York JFK (JFK)' };
const cdg = { code: 'CDG', label: 'Paris CDG (CDG)' };

function form(change: Partial<FlightSearchForm> = {}): FlightSearchForm {
  return {
    tripType: 'return',
    legs: [
      { origin: lhr, destination: jfk, date: '2026-12-01' },
      { origin: jfk, destination: lhr, date: '2026-12-08' },
    ],
    adults: 1,
    cabinClass: 'economy',
    ...change,
  };
}

describe('flight search validation', () => {
  it('catches a date beyond what airlines sell, saying the last date they do', () => {
    const errors = validateFlightSearch(
      form({ tripType: 'one-way', legs: [{ origin: lhr, destination: jfk, date: '2028-11-22' }] }),
      TODAY,
    );
    expect(errors['itinerary.0.date']).toBe(
      'Airlines sell flights up to 361 days ahead: choose a date on or before 18 November 2027.',
    );
    expect(
      validateFlightSearch(
        form({ tripType: 'one-way', legs: [{ origin: lhr, destination: jfk, date: '2027-11-18' }] }),
        TODAY,
      ),
    ).toEqual({});
  });

  it('writes its problems in Spanish, with a Spanish date, for a Spanish-speaking traveler', () => {
    const es = setupI18n({ locale: 'es', messages: { es: compileCatalog(spanish) } });
    const errors = validate(
      form({ tripType: 'one-way', legs: [{ origin: lhr, destination: null, date: '2028-11-22' }] }),
      TODAY,
      { t: (id, values) => es._(id, values), locale: 'es-ES' },
    );
    expect(errors).toEqual({
      'itinerary.0.destination': 'Elige adónde va este vuelo.',
      'itinerary.0.date':
        'Las aerolíneas venden vuelos con hasta 361 días de antelación: elige una fecha no posterior al 18 de noviembre de 2027.',
    });
  });

  it('accepts a complete return trip', () => {
    expect(validateFlightSearch(form(), TODAY)).toEqual({});
  });

  it('asks for origin, destination and date of every leg, at the server paths', () => {
    const errors = validateFlightSearch(
      form({ tripType: 'one-way', legs: [{ origin: null, destination: null, date: '' }] }),
      TODAY,
    );
    expect(Object.keys(errors)).toEqual([
      'itinerary.0.origin',
      'itinerary.0.destination',
      'itinerary.0.date',
    ]);
  });

  it('refuses a destination equal to the origin', () => {
    const errors = validateFlightSearch(
      form({ tripType: 'one-way', legs: [{ origin: lhr, destination: { ...lhr }, date: '2026-12-01' }] }),
      TODAY,
    );
    expect(errors['itinerary.0.destination']).toMatch(/different from the origin/);
  });

  it('refuses dates in the past and a return before the outbound', () => {
    const errors = validateFlightSearch(
      form({
        legs: [
          { origin: lhr, destination: jfk, date: '2026-11-01' },
          { origin: jfk, destination: lhr, date: '2026-10-30' },
        ],
      }),
      TODAY,
    );
    expect(errors['itinerary.0.date']).toMatch(/past/);
    expect(errors['itinerary.1.date']).toMatch(/past/);
    const backwards = validateFlightSearch(
      form({
        legs: [
          { origin: lhr, destination: jfk, date: '2026-12-10' },
          { origin: jfk, destination: lhr, date: '2026-12-05' },
        ],
      }),
      TODAY,
    );
    expect(backwards['itinerary.1.date']).toBe('Return on or after the outbound date.');
  });

  it('keeps the legs of a multi-city trip in date order', () => {
    const errors = validateFlightSearch(
      form({
        tripType: 'multi-city',
        legs: [
          { origin: lhr, destination: jfk, date: '2026-12-01' },
          { origin: jfk, destination: cdg, date: '2026-12-05' },
          { origin: cdg, destination: lhr, date: '2026-12-03' },
        ],
      }),
      TODAY,
    );
    expect(errors).toEqual({ 'itinerary.2.date': 'Each flight must be on or after the one before.' });
  });

  it('allows one to nine adults', () => {
    expect(validateFlightSearch(form({ adults: 0 }), TODAY)['passengers.adults']).toBeDefined();
    expect(validateFlightSearch(form({ adults: 10 }), TODAY)['passengers.adults']).toBeDefined();
    expect(validateFlightSearch(form({ adults: 9 }), TODAY)).toEqual({});
  });

  it('builds the request body of the spec, in the traveler currency', () => {
    expect(toFlightSearchRequest(form(), 'GBP')).toEqual({
      itinerary: [
        { origin: 'LHR', destination: 'JFK', date: '2026-12-01' },
        { origin: 'JFK', destination: 'LHR', date: '2026-12-08' },
      ],
      passengers: { adults: 1 },
      cabinClass: 'economy',
      currency: 'GBP',
    });
  });
});

describe('flight search in the URL', () => {
  it('round-trips a multi-city search through the URL', () => {
    const search = form({
      tripType: 'multi-city',
      adults: 3,
      cabinClass: 'business',
      legs: [
        { origin: lhr, destination: jfk, date: '2026-12-01' },
        { origin: jfk, destination: cdg, date: '2026-12-05' },
        { origin: cdg, destination: lhr, date: '2026-12-09' },
      ],
    });
    const params = flightSearchToParams(search);
    expect(params.toString()).toBe(
      'trip=multi-city&leg=LHR.JFK.2026-12-01&leg=JFK.CDG.2026-12-05&leg=CDG.LHR.2026-12-09&adults=3&cabin=business',
    );
    const back = flightSearchFormFromParams(params, { date: '2026-12-20', returnDate: '2026-12-27' });
    expect(back.legs.map((leg) => [leg.origin?.code, leg.destination?.code, leg.date])).toEqual([
      ['LHR', 'JFK', '2026-12-01'],
      ['JFK', 'CDG', '2026-12-05'],
      ['CDG', 'LHR', '2026-12-09'],
    ]);
    expect(back).toMatchObject({ tripType: 'multi-city', adults: 3, cabinClass: 'business' });
  });

  it('ignores values the URL cannot mean', () => {
    const back = flightSearchFormFromParams(
      new URLSearchParams('trip=bogus&leg=L1.xx.notadate&adults=99&cabin=luxury'),
      {
        date: '2026-12-20',
        returnDate: '2026-12-27',
      },
    );
    expect(back.tripType).toBe('return');
    expect(back.legs[0]).toEqual({ origin: null, destination: null, date: '' });
    expect(back.adults).toBe(1);
    expect(back.cabinClass).toBe('economy');
  });

  it('mirrors the outbound when switching to a return trip', () => {
    const oneWay = form({
      tripType: 'one-way',
      legs: [{ origin: lhr, destination: jfk, date: '2026-12-01' }],
    });
    const legs = legsForTripType(oneWay, 'return', '2026-12-08');
    expect(legs[1]).toEqual({ origin: jfk, destination: lhr, date: '2026-12-08' });
  });
});
