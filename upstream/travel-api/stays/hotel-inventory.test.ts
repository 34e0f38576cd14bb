import { describe, expect, it } from 'vitest';
import { StayPropertyDestinationSchema } from '#shared/upstream/destinations.ts';
import { HotelInventory, type StayCity } from './hotel-inventory.ts';

const city = (cityId: string, name: string, countryCode: string, timeZone: string): StayCity => ({
  cityId,
  name,
  countryCode,
  latitude: 40,
  longitude: 0,
  timeZone,
});

/** A city per street style, with how its addresses read. */
const ADDRESS_STYLES: readonly [StayCity, RegExp][] = [
  [city('madrid-es', 'Madrid', 'ES', 'Europe/Madrid'), /^(Calle|Avenida|Paseo|Plaza) .+, \d+, Madrid$/],
  [
    city('mexico-city-mx', 'Mexico City', 'MX', 'America/Mexico_City'),
    /^(Calle|Avenida) .+ \d+, Mexico City$/,
  ],
  [city('lisbon-pt', 'Lisbon', 'PT', 'Europe/Lisbon'), /^(Rua|Avenida) .+, \d+, Lisbon$/],
  [city('paris-fr', 'Paris', 'FR', 'Europe/Paris'), /^\d+ (rue|avenue|boulevard|place) .+, Paris$/],
  [city('rome-it', 'Rome', 'IT', 'Europe/Rome'), /^(Via|Corso|Piazza) .+, \d+, Rome$/],
  [city('berlin-de', 'Berlin', 'DE', 'Europe/Berlin'), /^\S*(straße|platz|gasse|allee) \d+, Berlin$/],
  [city('zurich-ch', 'Zurich', 'CH', 'Europe/Zurich'), /^\S*(strasse|platz|gasse|allee) \d+, Zurich$/],
  [city('london-gb', 'London', 'GB', 'Europe/London'), /^\d+ .+ (Street|Road|Lane), London$/],
  [
    city('new-york-us', 'New York', 'US', 'America/New_York'),
    /^\d+ (.+ (Street|Avenue)|Broadway), New York$/,
  ],
  [city('tokyo-jp', 'Tokyo', 'JP', 'Asia/Tokyo'), /^\S+ \d+-\d+-\d+, Tokyo$/],
  [city('istanbul-tr', 'Istanbul', 'TR', 'Europe/Istanbul'), /^.+ (Caddesi|Bulvarı) No: \d+, Istanbul$/],
];

const cities: StayCity[] = [
  {
    cityId: 'lisbon-pt',
    name: 'Lisbon',
    countryCode: 'PT',
    latitude: 38.77,
    longitude: -9.13,
    timeZone: 'Europe/Lisbon',
  },
  {
    cityId: 'london-gb',
    name: 'London',
    countryCode: 'GB',
    latitude: 51.47,
    longitude: -0.45,
    timeZone: 'Europe/London',
  },
  {
    cityId: 'sao-paulo-br',
    name: 'São Paulo',
    countryCode: 'BR',
    latitude: -23.43,
    longitude: -46.47,
    timeZone: 'America/Sao_Paulo',
  },
];

describe('hotel inventory', () => {
  it('generates the same hotels for the same seed and different ones for another seed', () => {
    const first = new HotelInventory({ seed: 'one', cities }).propertiesIn('lisbon-pt');
    const again = new HotelInventory({ seed: 'one', cities }).propertiesIn('lisbon-pt');
    const other = new HotelInventory({ seed: 'two', cities }).propertiesIn('lisbon-pt');
    expect(again).toEqual(first);
    expect(other.map((property) => property.propertyId)).not.toEqual(
      first.map((property) => property.propertyId),
    );
  });

  it('gives every city 8 to 16 hotels near its centre, nearest first, priced in the local currency', () => {
    const inventory = new HotelInventory({ seed: 'wayfare', cities });
    const london = inventory.propertiesIn('london-gb');
    expect(london.length).toBeGreaterThanOrEqual(8);
    expect(london.length).toBeLessThanOrEqual(16);
    expect(london.map((property) => property.distanceKm)).toEqual(
      [...london.map((property) => property.distanceKm)].sort((a, b) => a - b),
    );
    for (const property of london) {
      expect(property.currency).toBe('GBP');
      expect(property.distanceKm).toBeLessThan(10);
      expect(property.roomTypes.length).toBeGreaterThanOrEqual(3);
      expect(property.roomTypes.every((roomType) => roomType.boards.includes('ROOM_ONLY'))).toBe(true);
    }
  });

  it('finds a hotel by its raw autocomplete id and by its service UUID', () => {
    const inventory = new HotelInventory({ seed: 'wayfare', cities });
    const hotel = inventory.propertiesIn('lisbon-pt')[2];
    expect(hotel).toBeDefined();
    expect(inventory.byRawId(hotel?.rawId ?? '')).toEqual(hotel);
    expect(inventory.byPropertyId(hotel?.propertyId ?? '', 'lisbon-pt')).toEqual(hotel);
    expect(inventory.byRawId('nowhere-xx-h01')).toBeUndefined();
    expect(inventory.byRawId('not-a-raw-id')).toBeUndefined();
  });

  it('autocompletes cities by prefix, ignoring case and accents, and then their hotels', () => {
    const inventory = new HotelInventory({ seed: 'wayfare', cities });
    const results = inventory.destinations('SAO', 6);
    expect(results[0]).toMatchObject({ type: 'city', cityId: 'sao-paulo-br', name: 'São Paulo' });
    expect(results.slice(1).every((item) => item.type === 'property' && item.city === 'São Paulo')).toBe(
      true,
    );
    expect(results).toHaveLength(6);
    for (const item of results.slice(1)) expect(StayPropertyDestinationSchema.parse(item)).toEqual(item);
  });

  it('autocompletes hotels by a word of their name in any city', () => {
    const inventory = new HotelInventory({ seed: 'wayfare', cities });
    const hotel = inventory.propertiesIn('london-gb')[0];
    const word = hotel?.name.split(' ').find((part) => part.length > 4 && part !== 'London') ?? '';
    const results = inventory.destinations(word.slice(0, 4), 25);
    expect(results.some((item) => item.type === 'property' && item.propertyId === hotel?.rawId)).toBe(true);
  });

  it('writes every address the way its country does, with street names of its own language', () => {
    const inventory = new HotelInventory({ seed: 'wayfare', cities: ADDRESS_STYLES.map(([place]) => place) });
    for (const [place, style] of ADDRESS_STYLES) {
      const addresses = inventory.propertiesIn(place.cityId).map((property) => property.address);
      for (const address of addresses) expect(address).toMatch(style);
      expect(new Set(addresses).size).toBeGreaterThan(1);
    }
    const spanish = inventory.propertiesIn('madrid-es').map((property) => property.address);
    expect(spanish.join(' ')).not.toMatch(/\b(King|Station|Market|Church|Harbour|Street)\b/);
  });

  it('gives every hotel stars, a guest score, amenities and a picture of its own, the same for the same seed', () => {
    const all = (seed: string) =>
      new HotelInventory({ seed, cities: ADDRESS_STYLES.map(([place]) => place) }).propertiesIn('paris-fr');
    const hotels = all('wayfare');
    for (const hotel of hotels) {
      expect(hotel.stars).toBeGreaterThanOrEqual(2);
      expect(hotel.stars).toBeLessThanOrEqual(5);
      expect(hotel.reviewScore).toBeGreaterThan(0);
      expect(hotel.reviewScore).toBeLessThanOrEqual(10);
      expect(hotel.reviewCount).toBeGreaterThan(0);
      expect(hotel.amenities.length).toBeGreaterThanOrEqual(3);
      expect(hotel.image).toMatchObject({ width: 320, height: 200 });
      expect(hotel.image.url).toMatch(/^data:image\/svg\+xml,/);
      const svg = decodeURIComponent(hotel.image.url.slice('data:image/svg+xml,'.length));
      expect(svg).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg'.*<\/svg>$/);
      expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
      expect(hotel.image.url.length).toBeLessThan(4000);
    }
    expect(new Set(hotels.map((hotel) => hotel.image.url)).size).toBe(hotels.length);
    expect(all('wayfare')).toEqual(hotels);
  });
});
