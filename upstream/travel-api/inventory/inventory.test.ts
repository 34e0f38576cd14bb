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
});
