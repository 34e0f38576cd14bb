import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n.ts';
import { describeProblems, validateStaySearch } from './validate-stay-search.ts';
import {
  decodeRooms,
  encodeRooms,
  staySearchFormFromParams,
  staySearchToParams,
  type StaySearchForm,
} from './stay-search-params.ts';

const TODAY = '2026-11-22';
const paris = {
  type: 'city' as const,
  cityId: 'paris-fr',
  name: 'Paris',
  countryCode: 'FR',
  latitude: 48.85,
  longitude: 2.35,
};

function form(change: Partial<StaySearchForm> = {}): StaySearchForm {
  return {
    destination: paris,
    checkIn: '2026-12-01',
    checkOut: '2026-12-04',
    rooms: [{ adults: 2, childrenAges: [] }],
    bookingProfile: false,
    ...change,
  };
}

/** The problems as an English-speaking traveler reads them. */
function validate(search: StaySearchForm, today: string): Record<string, string> {
  return describeProblems(validateStaySearch(search, today), (id, values) => i18n._(id, values));
}

describe('stay search validation', () => {
  it('accepts a complete search', () => {
    expect(validate(form(), TODAY)).toEqual({});
  });

  it('needs a destination chosen from the list', () => {
    expect(validate(form({ destination: null }), TODAY)).toEqual({
      destination: 'Choose a city or hotel from the list.',
    });
  });

  it('refuses a check-in in the past and a check-out not after check-in', () => {
    expect(validate(form({ checkIn: '2026-11-01', checkOut: '2026-11-03' }), TODAY)).toEqual({
      checkIn: 'Check-in cannot be in the past.',
    });
    expect(validate(form({ checkOut: '2026-12-01' }), TODAY)).toEqual({
      checkOut: 'Check-out must be after check-in.',
    });
  });

  it('checks each room at its own path', () => {
    const errors = validate(
      form({
        rooms: [
          { adults: 2, childrenAges: [] },
          { adults: 0, childrenAges: [] },
          { adults: 7, childrenAges: [1, 2, 3, 4, 5, 6, 7] },
        ],
      }),
      TODAY,
    );
    expect(errors).toEqual({
      'rooms.1.adults': 'Each room needs at least one adult.',
      'rooms.2.adults': 'At most 6 adults per room.',
      'rooms.2.childrenAges': 'At most 6 children per room.',
    });
  });

  it('refuses no rooms and more than eight', () => {
    expect(validate(form({ rooms: [] }), TODAY).rooms).toBe('Add at least one room.');
    const nine = Array.from({ length: 9 }, () => ({ adults: 1, childrenAges: [] }));
    expect(validate(form({ rooms: nine }), TODAY).rooms).toBe('Book at most 8 rooms at once.');
  });
});

describe('stay search in the URL', () => {
  it('encodes rooms with their children ages compactly and reads them back', () => {
    const rooms = [
      { adults: 2, childrenAges: [5, 7] },
      { adults: 1, childrenAges: [] },
    ];
    expect(encodeRooms(rooms)).toBe('2:5.7,1');
    expect(decodeRooms('2:5.7,1')).toEqual(rooms);
  });

  it('refuses room texts that are not valid occupancies', () => {
    for (const text of ['0', '2:18', 'x', '7', '2:1.2.3.4.5.6.7']) expect(decodeRooms(text)).toBeUndefined();
  });

  it('round-trips a search with a city and a personal trip', () => {
    const search = form({ bookingProfile: true, destination: paris });
    const params = staySearchToParams({ ...search, destination: paris });
    const back = staySearchFormFromParams(params, { checkIn: 'x', checkOut: 'y', bookingProfile: false });
    expect(back).toEqual(search);
  });

  it('round-trips a hotel destination for the direct-property path', () => {
    const hotel = {
      type: 'property' as const,
      propertyId: 'paris-fr-h03',
      name: 'Hotel Saffron',
      city: 'Paris',
      countryCode: 'FR',
      latitude: 48.86,
      longitude: 2.34,
    };
    const params = staySearchToParams({ ...form(), destination: hotel });
    expect(
      staySearchFormFromParams(params, { checkIn: '', checkOut: '', bookingProfile: false }).destination,
    ).toEqual(hotel);
  });
});
