import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../test-support/languages-for-tests.ts';
import { bookingName } from './booking-name.ts';

afterEach(activateEnglishForTests);

const t = (id: Parameters<typeof i18n._>[0], values?: Record<string, unknown>) => i18n._(id, values);

describe('bookingName', () => {
  it('names a rental car by its city and a return flight as there and back, in each language', () => {
    const car = { kind: 'car', title: 'Rental car in Dubai', city: 'Dubai' };
    const flight = {
      kind: 'flight',
      title: 'Zurich → London and back',
      cities: ['Zurich', 'London', 'Zurich'],
    };
    expect(bookingName(car, t)).toEqual({ text: 'Rental car in Dubai' });
    expect(bookingName(flight, t)).toEqual({ text: 'Zurich → London and back' });
    activateSpanishForTests();
    expect(bookingName(car, t)).toEqual({ text: 'Coche de alquiler en Dubai' });
    expect(bookingName(flight, t)).toEqual({ text: 'Zurich → London, ida y vuelta' });
    expect(bookingName({ ...flight, cities: ['Zurich', 'Frankfurt', 'Athens'] }, t)).toEqual({
      text: 'Zurich → Frankfurt → Athens',
    });
  });

  it('keeps a hotel’s name and a route the list gives, and marks an unknown kind’s title as English', () => {
    activateSpanishForTests();
    expect(bookingName({ kind: 'stay', title: 'Casa do Rio' }, t)).toEqual({ text: 'Casa do Rio' });
    expect(bookingName({ kind: 'rail', title: 'Paris → Lyon' }, t)).toEqual({ text: 'Paris → Lyon' });
    expect(bookingName({ kind: 'ferry', title: 'Ferry to Bainbridge' }, t)).toEqual({
      text: 'Ferry to Bainbridge',
      lang: 'en',
    });
  });
});
