import { createRequire } from 'node:module';

/** place-names.json, written by scripts/generate-place-names.ts from the Unicode CLDR. */
export interface PlaceNamesFile {
  source: string;
  /** By `<countryCode>|<city as the airport data spells it>`: the city's English name and its other names by language. */
  cities: Record<string, { en: string; [language: string]: string }>;
}

/** Lower case, accents and other marks removed, trimmed: "Pekín" and "pekin" compare equal. */
export function normalizePlaceName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** The language of a BCP 47 locale (`es` for `es-ES`), or undefined for a malformed one. */
export function languageOf(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  try {
    return new Intl.Locale(locale).language;
  } catch {
    return undefined;
  }
}

/** A city's names: the English one and, when it has one, the one in the asked language. */
export interface CityNames {
  english: string;
  localized: string;
}

/**
 * Names of the inventory's cities in the languages the data set has (English and Spanish), so that a
 * traveler finds "Londres" and "Pekin" and reads results in their own language. A city the data does not
 * name keeps its own spelling in every language.
 */
export class PlaceNames {
  readonly #cities: PlaceNamesFile['cities'];
  readonly #languages: ReadonlySet<string>;
  readonly #countries = new Map<string, Intl.DisplayNames>();

  constructor(file: PlaceNamesFile = loadPlaceNames()) {
    this.#cities = file.cities;
    this.#languages = new Set(['en', ...Object.values(file.cities).flatMap((names) => Object.keys(names))]);
  }

  /** The language of `locale` when the data names places in it, else undefined (English). */
  languageOf(locale: string | undefined): string | undefined {
    const language = languageOf(locale);
    return language !== undefined && this.#languages.has(language) ? language : undefined;
  }

  /** The city of an airport (`GB`, `London`) in English and in `language` (English when undefined). */
  city(countryCode: string | null, city: string, language?: string): CityNames {
    const entry = countryCode === null ? undefined : this.#cities[`${countryCode}|${city}`];
    const english = entry?.en ?? city;
    return { english, localized: (language && entry?.[language]) || english };
  }

  /** Every name of an airport's city by language (`en` always), or undefined when the data has none. */
  cityNames(countryCode: string | null, city: string): Readonly<Record<string, string>> | undefined {
    if (countryCode === null) return undefined;
    return this.#cities[`${countryCode}|${city}`];
  }

  /** A country's name in `language` ("Reino Unido" for GB in Spanish), or undefined when unknown. */
  country(countryCode: string | null, language: string): string | undefined {
    if (countryCode === null) return undefined;
    let names = this.#countries.get(language);
    if (!names) {
      try {
        names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
      } catch {
        return undefined;
      }
      this.#countries.set(language, names);
    }
    try {
      return names.of(countryCode);
    } catch {
      return undefined;
    }
  }
}

function loadPlaceNames(): PlaceNamesFile {
  const require = createRequire(import.meta.url);
  return require('./place-names.json') as PlaceNamesFile;
}
