import type {
  StayCityDestination,
  StayDestination,
  StayPropertyDestination,
} from '#shared/upstream/destinations.ts';
import type { KnownStayBoardType, PropertyImage } from '#shared/upstream/stays.ts';
import { localCurrencyOf } from '../money.ts';
import { createRandom, type Random } from '../random.ts';
import { propertyImage } from './property-image.ts';
import { streetAddress, streetsOf } from './street-address.ts';

/** A city that has hotels: one per distinct city of the airport inventory. */
export interface StayCity {
  cityId: string;
  name: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** The city's names by language (`en` is `name`), when it has names of its own in other languages. */
  names?: Readonly<Record<string, string>>;
  /** Other spellings of the city in the airport data ("Milano" for Milan), which find it too. */
  aliases?: string[];
}

export interface StayRoomType {
  name: string;
  bedType: string;
  maxAdults: number;
  maxOccupancy: number;
  priceFactor: number;
  boards: KnownStayBoardType[];
}

export interface StayProperty {
  /** Service UUID, as the search stream yields it. */
  propertyId: string;
  /** Raw autocomplete id, as StayPropertyDestination carries it. */
  rawId: string;
  cityId: string;
  name: string;
  stars: number;
  address: string;
  city: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  distanceKm: number;
  reviewScore: number;
  reviewCount: number;
  amenities: string[];
  palette: string[];
  monogram: string;
  /** A drawing of the hotel's front. */
  image: PropertyImage;
  currency: string;
  /** Price of the reference room for two adults, one weekday night, in euros (converted when quoted). */
  baseNightlyEur: number;
  /** Days before check-in (at 18:00 local time) until which refundable rates cancel for free. */
  freeCancellationDays: number;
  timeZone: string;
  roomTypes: StayRoomType[];
}

const NAME_WORDS = [
  'Aurora',
  'Meridian',
  'Linden',
  'Harbour',
  'Cedar',
  'Juniper',
  'Atlas',
  'Solstice',
  'Marlow',
  'Ivory',
  'Beacon',
  'Willow',
  'Orchard',
  'Saffron',
  'Lantern',
  'Granite',
  'Citadel',
  'Verde',
  'Azure',
  'Kestrel',
  'Halcyon',
  'Larkspur',
  'Copper',
  'Northgate',
  'Bellhaven',
  'Silverleaf',
  'Rosemont',
  'Tamarind',
];
const AREAS = [
  'Old Town',
  'Riverside',
  'Central',
  'Station',
  'Airport',
  'Waterfront',
  'Park',
  'Cathedral Quarter',
  'Market Square',
  'Business District',
  'Harbourside',
  'Gardens',
];
const NAME_PATTERNS: readonly ((word: string, area: string, city: string) => string)[] = [
  (word) => `Hotel ${word}`,
  (word, _area, city) => `The ${word} ${city}`,
  (word) => `${word} House`,
  (_word, area, city) => `${city} ${area} Hotel`,
  (word, area) => `${word} ${area} Suites`,
  (word) => `Grand ${word}`,
  (word, _area, city) => `${word} Residence ${city}`,
  (word) => `${word} Boutique Hotel`,
];
const AMENITIES = [
  'wifi',
  'breakfast',
  'gym',
  'spa',
  'pool',
  'parking',
  'airport_shuttle',
  'restaurant',
  'bar',
  'meeting_rooms',
  'pet_friendly',
  'air_conditioning',
  'laundry',
  'ev_charging',
];
const PALETTES = [
  ['#1d4e89', '#00b2ca'],
  ['#7d4e57', '#f7a072'],
  ['#2d6a4f', '#95d5b2'],
  ['#5a189a', '#c77dff'],
  ['#9d0208', '#f48c06'],
  ['#22333b', '#c6ac8f'],
  ['#006d77', '#83c5be'],
  ['#3a0ca3', '#4cc9f0'],
];
const ROOM_TYPES: readonly Omit<StayRoomType, 'boards'>[] = [
  { name: 'Standard Double Room', bedType: 'Double', maxAdults: 2, maxOccupancy: 3, priceFactor: 1 },
  { name: 'Standard Twin Room', bedType: 'Twin', maxAdults: 2, maxOccupancy: 3, priceFactor: 1 },
  { name: 'Single Room', bedType: 'Single', maxAdults: 1, maxOccupancy: 1, priceFactor: 0.75 },
  { name: 'Superior Queen Room', bedType: 'Queen', maxAdults: 2, maxOccupancy: 3, priceFactor: 1.2 },
  { name: 'Deluxe King Room', bedType: 'King', maxAdults: 2, maxOccupancy: 3, priceFactor: 1.45 },
  { name: 'Family Room', bedType: 'Double and bunk beds', maxAdults: 4, maxOccupancy: 5, priceFactor: 1.6 },
  { name: 'Junior Suite', bedType: 'King', maxAdults: 3, maxOccupancy: 4, priceFactor: 1.9 },
  { name: 'Executive Suite', bedType: 'King', maxAdults: 2, maxOccupancy: 4, priceFactor: 2.6 },
];
const BASE_NIGHTLY_EUR: Record<number, [number, number]> = {
  2: [55, 85],
  3: [80, 140],
  4: [130, 230],
  5: [240, 480],
};

/**
 * The hotels of every city, generated on first use and the same for a given seed: names, stars,
 * addresses near the centre, room types with their boards, and a base price in the local currency.
 */
export class HotelInventory {
  readonly #seed: string;
  readonly #cities = new Map<string, StayCity>();
  readonly #properties = new Map<string, StayProperty[]>();
  readonly #byPropertyId = new Map<string, StayProperty>();
  readonly #featuredCityIds: readonly string[];
  readonly #featured: ReadonlySet<string>;

  /** Hotels of the featured cities autocomplete by name; all cities autocomplete by their own name. */
  constructor({
    seed,
    cities,
    featuredCityIds,
  }: {
    seed: string;
    cities: readonly StayCity[];
    featuredCityIds?: readonly string[];
  }) {
    this.#seed = seed;
    for (const city of cities) this.#cities.set(city.cityId, city);
    this.#featuredCityIds = featuredCityIds ?? [...this.#cities.keys()];
    this.#featured = new Set(this.#featuredCityIds);
  }

  city(cityId: string): StayCity | undefined {
    return this.#cities.get(cityId);
  }

  get cityCount(): number {
    return this.#cities.size;
  }

  /** The hotels of a city, nearest to the centre first; empty for an unknown city. */
  propertiesIn(cityId: string): StayProperty[] {
    const cached = this.#properties.get(cityId);
    if (cached) return cached;
    const city = this.#cities.get(cityId);
    if (!city) return [];
    const count = createRandom(this.#seed, 'hotel-count', cityId).int(8, 16);
    const names = new Set<string>();
    const properties = Array.from({ length: count }, (_, index) => {
      const property = this.#generate(city, index + 1, names);
      names.add(property.name);
      return property;
    }).sort((a, b) => a.distanceKm - b.distanceKm);
    this.#properties.set(cityId, properties);
    for (const property of properties) this.#byPropertyId.set(property.propertyId, property);
    return properties;
  }

  /** A hotel by its raw autocomplete id (the direct-property path). */
  byRawId(rawId: string): StayProperty | undefined {
    const match = /^(.+)-h(\d{2})$/.exec(rawId);
    if (!match) return undefined;
    return this.propertiesIn(match[1] as string).find((property) => property.rawId === rawId);
  }

  /** A hotel by service UUID, within the city it was found in. */
  byPropertyId(propertyId: string, cityId: string): StayProperty | undefined {
    this.propertiesIn(cityId);
    return this.#byPropertyId.get(propertyId);
  }

  /**
   * Autocomplete: cities whose name (in English, in `language` or as an airport spells it) starts with the
   * query, named in `language`, the hub cities first, then hotels of the best matching cities and hotels of the featured cities with a word of
   * their name starting with the query.
   */
  destinations(query: string, limit: number, language?: string): StayDestination[] {
    const needle = normalize(query);
    const named = (city: StayCity) => (language && city.names?.[language]) || city.name;
    const featured = (city: StayCity) => (this.#featured.has(city.cityId) ? 0 : 1);
    const cities = [...this.#cities.values()]
      .filter((city) =>
        [city.name, named(city), ...(city.aliases ?? [])].some((name) => normalize(name).startsWith(needle)),
      )
      .sort(
        (a, b) =>
          featured(a) - featured(b) || named(a).length - named(b).length || named(a).localeCompare(named(b)),
      );
    const results: StayDestination[] = cities
      .slice(0, limit)
      .map((city) => ({ ...cityDestination(city), name: named(city) }));
    const seen = new Set<string>();
    const addProperty = (property: StayProperty) => {
      if (results.length >= limit || seen.has(property.rawId)) return;
      seen.add(property.rawId);
      results.push(propertyDestination(property));
    };
    for (const city of cities.slice(0, 3)) this.propertiesIn(city.cityId).slice(0, 5).forEach(addProperty);
    if (results.length < limit) {
      for (const property of this.#featuredProperties()) {
        if (
          normalize(property.name)
            .split(/\s+/)
            .some((word) => word.startsWith(needle))
        ) {
          addProperty(property);
        }
      }
    }
    return results;
  }

  *#featuredProperties(): Generator<StayProperty> {
    for (const cityId of this.#featuredCityIds) yield* this.propertiesIn(cityId);
  }

  /** The city's hotel number `index`; `taken` holds the names of the city's hotels before it. */
  #generate(city: StayCity, index: number, taken: ReadonlySet<string>): StayProperty {
    const random = createRandom(this.#seed, 'hotel', city.cityId, index);
    const stars = random.pick([2, 3, 3, 3, 4, 4, 4, 5]);
    let name = hotelName(random, city);
    // Two hotels of one city never share a name (a traveler could not tell them apart in the suggestions).
    // Another name is drawn from a sequence of its own, so the hotel's other details, its id included, are
    // those it had before.
    for (let attempt = 1; taken.has(name) && attempt <= 50; attempt++) {
      name = hotelName(createRandom(this.#seed, 'hotel-name', city.cityId, index, attempt), city);
    }
    const bearing = between(random, 0, 2 * Math.PI);
    const distanceKm = round(between(random, 0.2, stars >= 4 ? 4 : 9), 1);
    const latitude = city.latitude + (distanceKm / 111.32) * Math.cos(bearing);
    const longitude =
      city.longitude +
      (distanceKm / (111.32 * Math.max(0.1, Math.cos((city.latitude * Math.PI) / 180)))) * Math.sin(bearing);
    const [low, high] = BASE_NIGHTLY_EUR[stars] ?? [80, 140];
    const cityFactor = between(createRandom(this.#seed, 'city-price', city.cityId), 0.7, 1.5);
    const roomTypes = sample(random, stars <= 2 ? ROOM_TYPES.slice(0, 4) : ROOM_TYPES, random.int(3, 5)).map(
      (roomType) => ({ ...roomType, boards: boardsFor(random, stars) }),
    );
    const rawId = `${city.cityId}-h${String(index).padStart(2, '0')}`;
    const property: Omit<StayProperty, 'image'> = {
      propertyId: random.uuid(),
      rawId,
      cityId: city.cityId,
      name,
      stars,
      address: streetAddress(
        city.countryCode,
        random.pick(streetsOf(city.countryCode)),
        random.int(1, 240),
        city.name,
      ),
      city: city.name,
      countryCode: city.countryCode,
      latitude: round(latitude, 5),
      longitude: round(longitude, 5),
      distanceKm,
      reviewScore: round(Math.min(10, between(random, 6.2, 8.4) + (stars - 3) * 0.4), 1),
      reviewCount: random.int(40, 4800),
      amenities: sample(random, AMENITIES, random.int(3, 3 + stars)).sort(),
      palette: random.pick(PALETTES),
      monogram: monogramOf(name),
      currency: localCurrencyOf(city.countryCode),
      baseNightlyEur: between(random, low, high) * cityFactor,
      freeCancellationDays: random.pick([1, 1, 2, 3, 7]),
      timeZone: city.timeZone,
      roomTypes,
    };
    // The drawing is made when an answer first shows it: most hotels of most cities are never shown, and
    // drawing each one (an SVG of about 2 KB) was half the cost of making a city's hotels.
    const seed = this.#seed;
    let image: PropertyImage | undefined;
    return {
      ...property,
      get image() {
        return (image ??= propertyImage(seed, rawId, stars, property.palette));
      },
    };
  }
}

function boardsFor(random: Random, stars: number): KnownStayBoardType[] {
  const boards: KnownStayBoardType[] = ['ROOM_ONLY'];
  if (random.chance(0.8)) boards.push('BREAKFAST');
  if (stars >= 3 && random.chance(0.35)) boards.push('HALF_BOARD');
  if (stars >= 4 && random.chance(0.15)) boards.push(random.pick(['FULL_BOARD', 'ALL_INCLUSIVE'] as const));
  return boards;
}

function between(random: Random, min: number, max: number): number {
  return min + random.next() * (max - min);
}

function hotelName(random: Random, city: StayCity): string {
  return random.pick(NAME_PATTERNS)(random.pick(NAME_WORDS), random.pick(AREAS), city.name);
}

/** `count` distinct items in a random order. */
function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  for (let index = pool.length - 1; index > 0; index--) {
    const other = Math.floor(random.next() * (index + 1));
    [pool[index], pool[other]] = [pool[other] as T, pool[index] as T];
  }
  return pool.slice(0, Math.min(count, pool.length));
}

function monogramOf(name: string): string {
  const words = name.split(/\s+/).filter((word) => !['The', 'Hotel', 'Grand'].includes(word));
  return words
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Lowercase without diacritics, so "sao" finds São Paulo. */
export function normalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

export function cityDestination(city: StayCity): StayCityDestination {
  return {
    type: 'city',
    cityId: city.cityId,
    name: city.name,
    countryCode: city.countryCode,
    latitude: city.latitude,
    longitude: city.longitude,
  };
}

export function propertyDestination(property: StayProperty): StayPropertyDestination {
  return {
    type: 'property',
    propertyId: property.rawId,
    name: property.name,
    city: property.city,
    countryCode: property.countryCode,
    latitude: property.latitude,
    longitude: property.longitude,
  };
}
