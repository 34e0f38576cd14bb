import { describe, expect, it } from 'vitest';
import { Inventory } from './inventory.ts';

const inventory = new Inventory();

describe('airport inventory', () => {
  it('holds thousands of real airports with IATA code, city, country and IANA time zone', () => {
    expect(inventory.airports.length).toBeGreaterThan(4000);
    expect(inventory.airport('zrh')).toMatchObject({
      code: 'ZRH',
      city: 'Zurich',
      countryCode: 'CH',
      timeZone: 'Europe/Zurich',
    });
    expect(inventory.majorAirports.length).toBeGreaterThan(50);
  });

  it('ranks an exact code first, then hubs of a city, ignoring case and accents', () => {
    expect(inventory.searchAirports('JFK', 3)[0]?.code).toBe('JFK');
    expect(inventory.searchAirports('london', 2).map((airport) => airport.code)).toEqual(['LHR', 'LGW']);
    expect(inventory.searchAirports('zürich', 5).map((airport) => airport.code)).toContain('ZRH');
    expect(inventory.searchAirports('   ', 5)).toEqual([]);
  });

  it.each([
    ['Londres', 'LHR', 'Londres', 'Reino Unido'],
    ['Nueva York', 'JFK', 'Nueva York', 'Estados Unidos'],
    ['Atenas', 'ATH', 'Atenas', 'Grecia'],
    ['Pekín', 'PEK', 'Pekín', 'China'],
    ['pekin', 'PEK', 'Pekín', 'China'],
    ['Lisboa', 'LIS', 'Lisboa', 'Portugal'],
  ])('finds %s in Spanish: %s first, named in Spanish', (query, code, city, country) => {
    const [first] = inventory.searchAirports(query, 5, 'es-ES');
    expect(first).toMatchObject({ code, city, country });
  });

  it('matches English names for a Spanish traveler too, and names them in Spanish', () => {
    expect(inventory.searchAirports('London', 2, 'es-ES')).toMatchObject([
      { code: 'LHR', city: 'Londres' },
      { code: 'LGW', city: 'Londres' },
    ]);
    expect(inventory.searchAirports('Londres', 5).map((airport) => airport.code)).not.toContain('LHR');
  });

  it('ranks the main airports of a city before a place that only contains the name', () => {
    const lisboa = inventory.searchAirports('Lisboa', 10, 'es').map((airport) => airport.code);
    expect(lisboa[0]).toBe('LIS');
    expect(inventory.searchAirports('Pekin', 3, 'es')[0]?.code).toBe('PEK');
  });

  it('knows Milan and Milano as one city, named Milan in English and Milán in Spanish', () => {
    const byMilano = inventory.searchAirports('Milano', 5).map((airport) => airport.code);
    const byMilan = inventory.searchAirports('Milan', 5).map((airport) => airport.code);
    expect(byMilano).toEqual(expect.arrayContaining(['MXP', 'LIN']));
    expect(byMilan).toEqual(expect.arrayContaining(['MXP', 'LIN']));
    expect(
      inventory.searchAirports('Milano', 5).filter((airport) => ['MXP', 'LIN'].includes(airport.code)),
    ).toMatchObject([{ city: 'Milan' }, { city: 'Milan' }]);
    expect(inventory.searchAirports('Milán', 1, 'es')).toMatchObject([{ code: 'MXP', city: 'Milán' }]);
  });

  it('answers in English for a language the place names do not have', () => {
    expect(inventory.searchAirports('London', 1, 'ja-JP')).toMatchObject([
      { code: 'LHR', city: 'London', country: 'United Kingdom' },
    ]);
  });
});
