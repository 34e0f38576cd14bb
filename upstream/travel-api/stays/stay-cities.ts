import type { Airport } from '#shared/upstream/flights.ts';
import type { PlaceNames } from '../inventory/place-names.ts';
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
 * without a country code are left out. With the place names, a city is known by its English name (the
 * airports of Milan, spelled "Milan" and "Milano", make one city) and carries its names in other languages.
 */
export function stayCitiesFrom(inventory: {
  airports: readonly Airport[];
  majorAirports: readonly Airport[];
  placeNames?: PlaceNames;
}): StayCities {
  const byId = new Map<string, StayCity>();
  const add = (airport: Airport) => {
    if (!airport.countryCode) return;
    const names = inventory.placeNames?.cityNames(airport.countryCode, airport.city);
    const name = names?.en ?? airport.city;
    const cityId = stayCityIdOf(airport, inventory.placeNames);
    if (cityId === undefined) return;
    const known = byId.get(cityId);
    if (known) {
      // Another airport's spelling of the same city ("Milano" beside "Milan") finds it too.
      if (airport.city !== known.name && !known.aliases?.includes(airport.city)) {
        known.aliases = [...(known.aliases ?? []), airport.city];
      }
      return;
    }
    byId.set(cityId, {
      cityId,
      name,
      countryCode: airport.countryCode,
      ...cityCentreOf(name, airport.countryCode, airport),
      timeZone: airport.timeZone,
      ...(names && Object.keys(names).length > 1 && { names }),
      ...(airport.city !== name && { aliases: [airport.city] }),
    });
  };
  inventory.majorAirports.forEach(add);
  const featuredCityIds = [...byId.keys()];
  inventory.airports.forEach(add);
  return { cities: [...byId.values()], featuredCityIds };
}

/** The id of the stay city an airport serves: its city's by the English name (`milan-it` for "Milano"). */
export function stayCityIdOf(
  airport: { city: string; countryCode: string | null },
  placeNames?: PlaceNames,
): string | undefined {
  if (!airport.countryCode) return undefined;
  const name = placeNames?.cityNames(airport.countryCode, airport.city)?.en ?? airport.city;
  return cityIdOf(name, airport.countryCode);
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
