import { describe, expect, it } from 'vitest';
import { StayFareSchema } from '#shared/upstream/stays.ts';
import { HotelInventory, type StayProperty } from './hotel-inventory.ts';
import { isSoldOut, quoteFares } from './quote-fares.ts';

const inventory = new HotelInventory({
  seed: 'wayfare',
  cities: [
    {
      cityId: 'tokyo-jp',
      name: 'Tokyo',
      countryCode: 'JP',
      latitude: 35.55,
      longitude: 139.78,
      timeZone: 'Asia/Tokyo',
    },
    {
      cityId: 'paris-fr',
      name: 'Paris',
      countryCode: 'FR',
      latitude: 49.0,
      longitude: 2.55,
      timeZone: 'Europe/Paris',
    },
  ],
});
const now = new Date('2027-01-10T12:00:00Z');

function availableHotel(cityId: string, checkIn: string): StayProperty {
  const hotel = inventory.propertiesIn(cityId).find((property) => !isSoldOut('wayfare', property, checkIn));
  if (!hotel) throw new Error('no available hotel');
  return hotel;
}

describe('quoteFares', () => {
  it('prices every fitting room type and board, cheapest first, with totals over the nights', () => {
    const property = availableHotel('paris-fr', '2027-03-01');
    const fares = quoteFares({
      seed: 'wayfare',
      property,
      checkIn: '2027-03-01',
      checkOut: '2027-03-04',
      rooms: [{ adults: 2, childrenAges: [] }],
      bookingProfile: true,
      now,
    });
    expect(fares.length).toBeGreaterThan(0);
    for (const fare of fares) {
      expect(StayFareSchema.parse({ ...fare, searchSolutionId: null, solutionKey: null })).toBeTruthy();
      expect(fare.nights).toBe(3);
      expect(fare.currency).toBe('EUR');
      expect(fare.nightlyPrice).toBeCloseTo(fare.totalPrice / 3, 1);
      expect(fare.corporateRate).toBe(false);
    }
    expect(fares.map((fare) => fare.totalPrice)).toEqual(
      [...fares.map((fare) => fare.totalPrice)].sort((a, b) => a - b),
    );
  });

  it('is deterministic for the same input', () => {
    const property = availableHotel('paris-fr', '2027-05-02');
    const input = {
      seed: 'wayfare',
      property,
      checkIn: '2027-05-02',
      checkOut: '2027-05-05',
      rooms: [{ adults: 1, childrenAges: [] }],
      bookingProfile: false,
      now,
    };
    expect(quoteFares(input)).toEqual(quoteFares(input));
  });

  it('offers free cancellation until 18:00 local time some days before check-in, and a cheaper non-refundable rate', () => {
    const property = availableHotel('tokyo-jp', '2027-04-10');
    const fares = quoteFares({
      seed: 'wayfare',
      property,
      checkIn: '2027-04-10',
      checkOut: '2027-04-12',
      rooms: [{ adults: 2, childrenAges: [] }],
      bookingProfile: true,
      now,
    });
    const refundable = fares.find((fare) => fare.cancellation.refundable);
    const twin = fares.find(
      (fare) =>
        !fare.cancellation.refundable &&
        fare.roomName === refundable?.roomName &&
        fare.board === refundable.board,
    );
    expect(refundable?.cancellation.freeCancellationUntil).toMatch(/T09:00:00\.000Z$/);
    expect(twin?.totalPrice).toBeLessThan(refundable?.totalPrice ?? 0);
    expect(Number.isInteger(refundable?.totalPrice)).toBe(true);
  });

  it('offers only non-refundable rates once the free cancellation deadline has passed', () => {
    const property = availableHotel('paris-fr', '2027-01-10');
    const fares = quoteFares({
      seed: 'wayfare',
      property,
      checkIn: '2027-01-10',
      checkOut: '2027-01-11',
      rooms: [{ adults: 2, childrenAges: [] }],
      bookingProfile: true,
      now,
    });
    expect(
      fares.every(
        (fare) => !fare.cancellation.refundable && fare.cancellation.freeCancellationUntil === null,
      ),
    ).toBe(true);
  });

  it('gives business travel corporate rates at three stars and up', () => {
    const property = inventory
      .propertiesIn('paris-fr')
      .find((hotel) => hotel.stars >= 3 && !isSoldOut('wayfare', hotel, '2027-06-01'));
    const base = {
      seed: 'wayfare',
      checkIn: '2027-06-01',
      checkOut: '2027-06-02',
      rooms: [{ adults: 1, childrenAges: [] }],
      now,
    };
    const business = quoteFares({ ...base, property: property as StayProperty, bookingProfile: false });
    const personal = quoteFares({ ...base, property: property as StayProperty, bookingProfile: true });
    expect(business.some((fare) => fare.corporateRate)).toBe(true);
    expect(Math.min(...business.map((fare) => fare.totalPrice))).toBeLessThanOrEqual(
      Math.min(...personal.map((fare) => fare.totalPrice)),
    );
  });

  it('has no rates at all when the hotel is sold out for the check-in date', () => {
    const property = inventory.propertiesIn('paris-fr')[0] as StayProperty;
    const checkIn = Array.from({ length: 365 }, (_, day) =>
      new Date(Date.UTC(2027, 0, 1 + day)).toISOString().slice(0, 10),
    ).find((date) => isSoldOut('wayfare', property, date));
    expect(checkIn).toBeDefined();
    const fares = quoteFares({
      seed: 'wayfare',
      property,
      checkIn: checkIn as string,
      checkOut: '2028-01-05',
      rooms: [{ adults: 1, childrenAges: [] }],
      bookingProfile: true,
      now,
    });
    expect(fares).toEqual([]);
  });

  it('skips room types too small for the party', () => {
    const property = availableHotel('paris-fr', '2027-03-01');
    const fares = quoteFares({
      seed: 'wayfare',
      property,
      checkIn: '2027-03-01',
      checkOut: '2027-03-02',
      rooms: [{ adults: 3, childrenAges: [5, 8] }],
      bookingProfile: true,
      now,
    });
    const roomTypes = new Map(property.roomTypes.map((roomType) => [roomType.name, roomType]));
    for (const fare of fares) expect(roomTypes.get(fare.roomName)?.maxOccupancy).toBeGreaterThanOrEqual(5);
  });
});
