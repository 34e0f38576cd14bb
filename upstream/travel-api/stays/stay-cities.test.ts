import { describe, expect, it } from 'vitest';
import { ISO_COUNTRY_CODES } from '../inventory/country-codes.ts';
import { Inventory } from '../inventory/inventory.ts';
import { CURRENCIES } from '#shared/upstream/flights.ts';
import { fromEuros, localCurrencyOf, RATED_CURRENCIES } from '../money.ts';
import { distanceKm } from '../inventory/geo.ts';
import { HotelInventory } from './hotel-inventory.ts';
import { stayCitiesFrom, stayCityIdOf } from './stay-cities.ts';

const inventory = new Inventory();
const stayCities = stayCitiesFrom(inventory);
const hotels = new HotelInventory({ seed: 'wayfare', ...stayCities });

describe('stay cities', () => {
  it('has a city for every airport of the inventory, each city with a current country code', () => {
    const cityIds = new Set(stayCities.cities.map((city) => city.cityId));
    const homeless = inventory.airports.filter(
      (airport) =>
        airport.countryCode === null || !cityIds.has(stayCityIdOf(airport, inventory.placeNames) ?? ''),
    );
    expect(homeless.map((airport) => `${airport.code} ${airport.city}`)).toEqual([]);
    const invalid = stayCities.cities.filter((city) => !ISO_COUNTRY_CODES.has(city.countryCode));
    expect(invalid.map((city) => city.cityId)).toEqual([]);
  });

  it('measures "from centre" from the city itself, not from its airport', () => {
    const notreDame = { latitude: 48.853, longitude: 2.3499 };
    const charlesDeGaulle = inventory.airports.find((airport) => airport.code === 'CDG');
    const paris = stayCities.cities.find((city) => city.cityId === 'paris-fr');
    expect(paris && charlesDeGaulle).toBeTruthy();
    if (!paris || !charlesDeGaulle) return;
    expect(distanceKm(paris, notreDame)).toBeLessThan(3);
    expect(distanceKm(paris, charlesDeGaulle)).toBeGreaterThan(20);
    const properties = hotels.propertiesIn('paris-fr');
    for (const property of properties) {
      expect(Math.abs(distanceKm(property, notreDame) - property.distanceKm), property.name).toBeLessThan(3);
    }
    const london = stayCities.cities.find((city) => city.cityId === 'london-gb');
    expect(london && distanceKm(london, { latitude: 51.5074, longitude: -0.1278 })).toBeLessThan(3);
  });

  it('prices the hotels of every city in the local currency when it has a rate, else in US dollars', () => {
    const supported = new Set(Intl.supportedValuesOf('currency'));
    for (const city of stayCities.cities) {
      const currency = localCurrencyOf(city.countryCode);
      expect(RATED_CURRENCIES, city.cityId).toContain(currency);
      expect(supported.has(currency), currency).toBe(true);
    }
    for (const cityId of stayCities.featuredCityIds) {
      const [property] = hotels.propertiesIn(cityId);
      expect(property?.currency, cityId).toBe(localCurrencyOf(property?.countryCode ?? ''));
    }
  });

  it('prices every hub city in its own currency', () => {
    const inUsdAbroad = stayCities.featuredCityIds
      .flatMap((cityId) => hotels.propertiesIn(cityId).slice(0, 1))
      .filter((property) => property.currency === 'USD' && !['US', 'PR'].includes(property.countryCode));
    expect(inUsdAbroad.map((property) => property.cityId)).toEqual([]);
  });

  it('has German hotels in Germany priced in euros, and hotels in Prague and Hong Kong', () => {
    for (const cityId of ['frankfurt-de', 'munich-de']) {
      const properties = hotels.propertiesIn(cityId);
      expect(properties.length, cityId).toBeGreaterThanOrEqual(8);
      expect(new Set(properties.map((property) => `${property.countryCode} ${property.currency}`))).toEqual(
        new Set(['DE EUR']),
      );
    }
    expect(hotels.propertiesIn('prague-cz')[0]).toMatchObject({ countryCode: 'CZ', currency: 'CZK' });
    expect(hotels.propertiesIn('hong-kong-hk')[0]).toMatchObject({ countryCode: 'HK', currency: 'HKD' });
    expect(hotels.propertiesIn('istanbul-tr')[0]).toMatchObject({ countryCode: 'TR', currency: 'TRY' });
  });

  // It makes the hotels of every city three times (about 180,000): 4 s alone on the machine, and once 22 s
  // in `npm test` beside two other Vitest workers and the static checks, past the 20 s every test has.
  // A bound for work that ends, not a speed claim (docs/testing.md, "Timeouts that grew").
  it('names no two hotels of a city alike, for the default seed and others', { timeout: 90_000 }, () => {
    // One expectation for the 15,000 cities of the three seeds: the cities whose hotels share a name.
    const alike: string[] = [];
    for (const seed of ['wayfare', 'demo-a', 'demo-b']) {
      const seeded = seed === 'wayfare' ? hotels : new HotelInventory({ seed, ...stayCities });
      for (const city of stayCities.cities) {
        const names = seeded.propertiesIn(city.cityId).map((property) => property.name);
        if (new Set(names).size !== names.length)
          alike.push(`${seed}: the hotels of ${city.name}: ${names.join(', ')}`);
      }
    }
    expect(alike).toEqual([]);
  });

  it('converts euros into each currency a traveler can choose or a hotel prices in, rounded to its minor unit', () => {
    for (const currency of CURRENCIES) expect(RATED_CURRENCIES).toContain(currency);
    expect(fromEuros(100, 'EUR')).toBe(100);
    expect(fromEuros(100, 'CZK')).toBe(2500);
    expect(fromEuros(100.123, 'HKD')).toBe(846.04);
    expect(fromEuros(100.123, 'JPY')).toBe(16020);
    expect(fromEuros(100, 'KWD')).toBe(33.2);
    expect(fromEuros(1.2345, 'BHD')).toBe(0.502);
  });
});

describe("stay destinations in the traveler's language", () => {
  it('finds London, New York, Athens, Beijing and Lisbon by their Spanish names, named in Spanish', () => {
    const first = (query: string) => hotels.destinations(query, 5, 'es')[0];
    expect(first('Londres')).toMatchObject({ type: 'city', cityId: 'london-gb', name: 'Londres' });
    expect(first('Nueva York')).toMatchObject({ type: 'city', cityId: 'new-york-us', name: 'Nueva York' });
    expect(first('Atenas')).toMatchObject({ type: 'city', cityId: 'athens-gr', name: 'Atenas' });
    expect(first('Pekin')).toMatchObject({ type: 'city', cityId: 'beijing-cn', name: 'Pekín' });
    expect(first('Lisboa')).toMatchObject({ type: 'city', cityId: 'lisbon-pt', name: 'Lisboa' });
    expect(first('London')).toMatchObject({ type: 'city', cityId: 'london-gb', name: 'Londres' });
    expect(hotels.destinations('London', 1)[0]).toMatchObject({ cityId: 'london-gb', name: 'London' });
  });

  it('has one Milan, whichever spelling its airports carry', () => {
    const milan = (query: string) =>
      hotels.destinations(query, 25).filter((item) => item.type === 'city' && item.countryCode === 'IT');
    expect(milan('Milano')).toMatchObject([{ cityId: 'milan-it', name: 'Milan' }]);
    expect(milan('Milan')).toMatchObject([{ cityId: 'milan-it', name: 'Milan' }]);
    expect(stayCities.cities.filter((city) => /^milan/.test(city.cityId))).toHaveLength(1);
  });
});
