import { describe, expect, it } from 'vitest';
import { StayPropertyDestinationSchema } from '#shared/upstream/destinations.ts';
import { HotelInventory, type StayCity } from './hotel-inventory.ts';

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
});
