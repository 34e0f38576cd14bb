import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  StayFareSchema,
  StayFaresRequestSchema,
  StayRoomsSchema,
  StaySearchRequestSchema,
  faresPath,
  nightsBetween,
  roomsFromPassengers,
  sameRooms,
  searchRooms,
} from './stays.ts';

const property = {
  type: 'property',
  propertyId: 'LIS-H03',
  name: 'Casa do Rio',
  city: 'Lisbon',
  countryCode: 'PT',
  latitude: 38.7,
  longitude: -9.1,
};
const solution = {
  searchSolutionId: '0b9f9c56-4a3e-4d2b-9d7e-1f8b2a3c4d5e',
  propertyId: '7d0c1e2f-3a4b-4c5d-8e6f-708192a3b4c5',
};

describe('stay fares request', () => {
  it('accepts the search-stream path with camelCase dates and defaults bookingProfile to false', () => {
    const parsed = StayFaresRequestSchema.parse({
      ...solution,
      checkIn: '2027-03-01',
      checkOut: '2027-03-04',
      rooms: [{ adults: 2 }],
    });
    expect(parsed.bookingProfile).toBe(false);
    expect(parsed.rooms).toEqual([{ adults: 2, childrenAges: [] }]);
  });

  it('rejects a check-out that is not strictly after the check-in, on the checkOut field', () => {
    const result = StayFaresRequestSchema.safeParse({
      property,
      checkIn: '2027-03-04',
      checkOut: '2027-03-04',
      rooms: [{ adults: 1 }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['checkOut']);
  });

  it('rejects an empty rooms list and impossible calendar dates', () => {
    const result = StayFaresRequestSchema.safeParse({
      property,
      checkIn: '2027-02-30',
      checkOut: '2027-03-04',
      rooms: [],
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['checkIn', 'rooms']);
  });

  it('rejects a solution key that is not a lowercase hex SHA-256', () => {
    const result = StayFaresRequestSchema.safeParse({
      ...solution,
      checkIn: '2027-03-01',
      checkOut: '2027-03-02',
      rooms: [{ adults: 1 }],
      solutionKey: 'ABC',
    });
    expect(result.error?.issues[0]?.path).toEqual(['solutionKey']);
  });
});

describe('fares path', () => {
  it('is the search-stream path when searchSolutionId and propertyId are both sent', () => {
    expect(faresPath(solution).kind).toBe('search');
  });

  it('is the direct-property path when only property is sent', () => {
    expect(faresPath({ property }).kind).toBe('property');
  });

  it('is both when property comes with any search-stream identifier', () => {
    expect(faresPath({ ...solution, property }).kind).toBe('both');
    expect(faresPath({ propertyId: solution.propertyId, property }).kind).toBe('both');
  });

  it('is neither when no path is complete, naming the missing half of a partial pair', () => {
    expect(faresPath({ property: null })).toEqual({ kind: 'neither', missing: [] });
    expect(faresPath({ searchSolutionId: solution.searchSolutionId })).toEqual({
      kind: 'neither',
      missing: ['propertyId'],
    });
  });
});

describe('stay search request', () => {
  const base = {
    destination: {
      type: 'city',
      cityId: 'LIS',
      name: 'Lisbon',
      countryCode: 'PT',
      latitude: 38.7,
      longitude: -9.1,
    },
    checkIn: '2027-03-01',
    checkOut: '2027-03-03',
  };

  it('takes either rooms or passengers, not both and not neither', () => {
    expect(StaySearchRequestSchema.safeParse({ ...base, rooms: [{ adults: 1 }] }).success).toBe(true);
    expect(StaySearchRequestSchema.safeParse({ ...base, passengers: { adults: 3 } }).success).toBe(true);
    expect(StaySearchRequestSchema.safeParse(base).success).toBe(false);
    expect(
      StaySearchRequestSchema.safeParse({ ...base, rooms: [{ adults: 1 }], passengers: { adults: 1 } })
        .success,
    ).toBe(false);
  });

  it('derives one room per two adults, with the children in the first room', () => {
    const request = StaySearchRequestSchema.parse({
      ...base,
      passengers: { adults: 5, childrenAges: [4, 9] },
    });
    expect(searchRooms(request)).toEqual([
      { adults: 2, childrenAges: [4, 9] },
      { adults: 2, childrenAges: [] },
      { adults: 1, childrenAges: [] },
    ]);
    expect(roomsFromPassengers({ adults: 1 })).toEqual([{ adults: 1, childrenAges: [] }]);
  });
});

describe('room and night helpers', () => {
  it('compares rooms regardless of order and of children order', () => {
    expect(
      sameRooms(
        [{ adults: 2, childrenAges: [3, 7] }, { adults: 1 }],
        [{ adults: 1 }, { adults: 2, childrenAges: [7, 3] }],
      ),
    ).toBe(true);
    expect(sameRooms([{ adults: 2 }], [{ adults: 2 }, { adults: 1 }])).toBe(false);
    expect(sameRooms([{ adults: 2 }], [{ adults: 1 }])).toBe(false);
  });

  it('counts nights across month ends and daylight-saving changes', () => {
    expect(nightsBetween('2027-03-27', '2027-04-02')).toBe(6);
    expect(nightsBetween('2028-02-28', '2028-03-01')).toBe(2);
  });
});

describe('fare event', () => {
  it('tolerates fields added later to /v1', () => {
    const fare = {
      fareId: '2b1c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
      propertyId: solution.propertyId,
      searchSolutionId: null,
      solutionKey: null,
      roomName: 'Superior Double',
      bedType: 'Double',
      board: 'BREAKFAST',
      cancellation: { refundable: true, freeCancellationUntil: '2027-02-27T23:59:00Z' },
      nightlyPrice: 120.5,
      totalPrice: 241,
      currency: 'EUR',
      nights: 2,
      roomsLeft: 3,
      corporateRate: false,
      loyaltyPoints: 40,
    };
    expect(StayFareSchema.parse(fare)).toMatchObject({ loyaltyPoints: 40, board: 'BREAKFAST' });
  });
});

describe('stay rules under random input', () => {
  it('derives rooms that keep every passenger, at most two adults a room, each room valid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 6 }),
        (adults, childrenAges) => {
          const rooms = roomsFromPassengers({ adults, childrenAges });
          expect(rooms.reduce((sum, room) => sum + room.adults, 0)).toBe(adults);
          expect(rooms.flatMap((room) => room.childrenAges)).toEqual(childrenAges);
          expect(rooms.every((room) => room.adults >= 1 && room.adults <= 2)).toBe(true);
          expect(StayRoomsSchema.safeParse(rooms).success).toBe(true);
        },
      ),
    );
  });

  it('puts every fares body on exactly one of the two paths, or on none', () => {
    const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
    fc.assert(
      fc.property(
        maybe(fc.uuid()),
        maybe(fc.uuid()),
        fc.option(fc.constant(property), { nil: undefined }),
        fc.boolean(),
        (searchSolutionId, propertyId, place, nullProperty) => {
          const body = { searchSolutionId, propertyId, property: place ?? (nullProperty ? null : undefined) };
          const path = faresPath(body);
          const search = searchSolutionId !== undefined && propertyId !== undefined;
          if (place && (searchSolutionId !== undefined || propertyId !== undefined))
            expect(path.kind).toBe('both');
          else if (place) expect(path.kind).toBe('property');
          else if (search) expect(path.kind).toBe('search');
          else expect(path.kind).toBe('neither');
        },
      ),
    );
  });
});
