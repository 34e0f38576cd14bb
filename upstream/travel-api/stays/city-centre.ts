import { cityMapping } from 'city-timezones';
import { distanceKm, type Coordinates } from '../inventory/geo.ts';

/** The farthest a city's centre may lie from its airport: beyond it, a namesake elsewhere is meant. */
const MAX_AIRPORT_DISTANCE_KM = 80;

function keyOf(city: string, countryCode: string): string {
  const name = city
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return `${name}|${countryCode.toUpperCase()}`;
}

let centresByCity: Map<string, Coordinates[]> | undefined;

/** The world cities data set (city-timezones: name, country and the centre's coordinates), by name and country. */
function centres(): Map<string, Coordinates[]> {
  if (centresByCity) return centresByCity;
  centresByCity = new Map();
  for (const entry of cityMapping) {
    // A few rows of the data set lack a country code or a name (Kosovo, some islands).
    if (typeof entry.iso2 !== 'string' || typeof entry.city !== 'string') continue;
    const centre = { latitude: entry.lat, longitude: entry.lng };
    for (const name of new Set([entry.city, entry.city_ascii].filter((name) => typeof name === 'string'))) {
      const key = keyOf(name, entry.iso2);
      const list = centresByCity.get(key) ?? [];
      list.push(centre);
      centresByCity.set(key, list);
    }
  }
  return centresByCity;
}

/**
 * Where a city's centre is, from the world cities data set: the namesake in the country nearest to the
 * airport that serves it, when it lies within 80 km of that airport; else the airport's own coordinates.
 */
export function cityCentreOf(city: string, countryCode: string, airport: Coordinates): Coordinates {
  let best: Coordinates | undefined;
  let bestDistance = MAX_AIRPORT_DISTANCE_KM;
  for (const centre of centres().get(keyOf(city, countryCode)) ?? []) {
    const distance = distanceKm(centre, airport);
    if (distance <= bestDistance) {
      best = centre;
      bestDistance = distance;
    }
  }
  return best ?? { latitude: airport.latitude, longitude: airport.longitude };
}
