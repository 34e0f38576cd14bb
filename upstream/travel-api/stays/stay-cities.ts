import type { Airport } from '#shared/upstream/flights.ts';
import { cityCentreOf } from './city-centre.ts';
import type { StayCity } from './hotel-inventory.ts';

export interface StayCities {
  cities: StayCity[];
  /** The cities of the hub airports, whose hotels autocomplete by name. */
  featuredCityIds: string[];
}

/**
 * One stay city per distinct (city, country) of the airport inventory, placed at the city's centre (its
 * busiest airport's coordinates when the centre is not known) with that airport's time zone. Airports
 * without a country code are left out.
 */
export function stayCitiesFrom(inventory: {
  airports: readonly Airport[];
  majorAirports: readonly Airport[];
}): StayCities {
  const byId = new Map<string, StayCity>();
  const add = (airport: Airport) => {
    if (!airport.countryCode) return;
    const cityId = cityIdOf(airport.city, airport.countryCode);
    if (cityId === undefined || byId.has(cityId)) return;
    byId.set(cityId, {
      cityId,
      name: airport.city,
      countryCode: airport.countryCode,
      ...cityCentreOf(airport.city, airport.countryCode, airport),
      timeZone: airport.timeZone,
    });
  };
  inventory.majorAirports.forEach(add);
  const featuredCityIds = [...byId.keys()];
  inventory.airports.forEach(add);
  return { cities: [...byId.values()], featuredCityIds };
}

/** `lisbon-pt`, `sao-paulo-br`: the city name as an ASCII slug, then the country code. */
export function cityIdOf(city: string, countryCode: string): string | undefined {
  const slug = city
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return slug === '' ? undefined : `${slug}-${countryCode.toLowerCase()}`;
}
