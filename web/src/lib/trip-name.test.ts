import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../test-support/languages-for-tests.ts';
import { segmentName } from './segment-name.ts';
import { tripName } from './trip-name.ts';

afterEach(activateEnglishForTests);

const t = (id: Parameters<typeof i18n._>[0], values?: Record<string, unknown>) => i18n._(id, values);

const place = (city: string) => ({ code: null, name: city, city, timeZone: 'America/Los_Angeles' });
const trip = { title: 'Seattle trip', cities: ['Seattle', 'Portland'] };
const car = {
  kind: 'car',
  title: 'Rental car in Seattle',
  origin: place('Seattle'),
  destination: place('Seattle'),
};
const flight = {
  kind: 'flight',
  title: 'Boston → Seattle',
  origin: place('Boston'),
  destination: place('Seattle'),
};
const stay = {
  kind: 'stay',
  title: 'Harbour Hotel Seattle',
  origin: place('Seattle'),
  destination: place('Seattle'),
};

describe('trip and segment names', () => {
  it('names a trip after the first city it visits, in English and in Spanish', () => {
    expect(tripName(trip, t)).toEqual({ text: 'Seattle trip' });
    activateSpanishForTests();
    expect(tripName(trip, t)).toEqual({ text: 'Viaje a Seattle' });
  });

  it('names the city in the interface’s language where the travel API gives its names', () => {
    const london = { title: 'London trip', cities: ['London'], cityNames: [{ en: 'London', es: 'Londres' }] };
    const milan = { title: 'Milano trip', cities: ['Milano'], cityNames: [{ en: 'Milan', es: 'Milán' }] };
    const named = (city: string, names: Record<string, string>) => ({ ...place(city), cityNames: names });
    const toLondon = {
      ...flight,
      origin: named('New York', { en: 'New York', es: 'Nueva York' }),
      destination: named('London', { en: 'London', es: 'Londres' }),
    };
    const carInLondon = { ...car, destination: named('London', { en: 'London', es: 'Londres' }) };
    expect(tripName(london, t)).toEqual({ text: 'London trip' });
    expect(tripName(milan, t)).toEqual({ text: 'Milan trip' });
    expect(segmentName(toLondon, t)).toEqual({ text: 'New York → London' });
    activateSpanishForTests();
    expect(tripName(london, t)).toEqual({ text: 'Viaje a Londres' });
    expect(tripName(milan, t)).toEqual({ text: 'Viaje a Milán' });
    expect(segmentName(toLondon, t)).toEqual({ text: 'Nueva York → Londres' });
    expect(segmentName(carInLondon, t)).toEqual({ text: 'Coche de alquiler en Londres' });
  });

  it('keeps the travel API’s title, marked English, for a trip that visits no city', () => {
    activateSpanishForTests();
    expect(tripName({ title: 'Away day', cities: [] }, t)).toEqual({ text: 'Away day', lang: 'en' });
  });

  it('names a rental car by its city and a flight by its route, in each language', () => {
    expect(segmentName(car, t)).toEqual({ text: 'Rental car in Seattle' });
    expect(segmentName(flight, t)).toEqual({ text: 'Boston → Seattle' });
    activateSpanishForTests();
    expect(segmentName(car, t)).toEqual({ text: 'Coche de alquiler en Seattle' });
    expect(segmentName({ ...flight, kind: 'rail' }, t)).toEqual({ text: 'Boston → Seattle' });
  });

  it('keeps a hotel’s own name, and marks the title of a kind it does not know as English', () => {
    activateSpanishForTests();
    expect(segmentName(stay, t)).toEqual({ text: 'Harbour Hotel Seattle' });
    expect(segmentName({ ...car, kind: 'ferry', title: 'Ferry to Bainbridge' }, t)).toEqual({
      text: 'Ferry to Bainbridge',
      lang: 'en',
    });
  });
});
