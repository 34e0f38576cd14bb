import { nightsBetween, type DueAtProperty, type StayRoom } from '#shared/upstream/stays.ts';
import { fromEuros, RATED_CURRENCIES } from '../money.ts';
import type { StayProperty, StayRoomType } from './hotel-inventory.ts';
import { createRandom } from '../random.ts';
import { addDays, zonedInstant } from '../time-zones.ts';

export interface QuoteFaresInput {
  seed: string;
  property: StayProperty;
  checkIn: string;
  checkOut: string;
  rooms: readonly StayRoom[];
  /** true: personal travel; false: business travel, which gets corporate rates at 3 stars and up. */
  bookingProfile: boolean;
  now: Date;
  /** The currency the traveler reads prices in; the hotel's own when absent or without a rate. */
  currency?: string | undefined;
}

/** One rate before it is tied to a search: the fare event without its lineage fields. */
export interface QuotedFare {
  fareId: string;
  propertyId: string;
  roomName: string;
  bedType: string;
  board: string;
  cancellation: { refundable: boolean; freeCancellationUntil: string | null };
  nightlyPrice: number;
  totalPrice: number;
  currency: string;
  nights: number;
  roomsLeft: number;
  corporateRate: boolean;
  timeZone: string;
  dueAtProperty: DueAtProperty;
  /** The rate in the hotel's own currency, when the prices above were converted to the traveler's. */
  propertyPrice?: { nightlyPrice: number; totalPrice: number; currency: string };
}

/** Share of (property, check-in) pairs that are sold out: their fares stream is empty. */
const SOLD_OUT_SHARE = 0.1;
const BOARD_PER_PERSON_EUR: Record<string, number> = {
  ROOM_ONLY: 0,
  BREAKFAST: 14,
  HALF_BOARD: 38,
  FULL_BOARD: 62,
  ALL_INCLUSIVE: 110,
};
const NON_REFUNDABLE_DISCOUNT = 0.88;
const CORPORATE_DISCOUNT = 0.92;

/** Whether a hotel has any room at all for a check-in date. */
export function isSoldOut(seed: string, property: StayProperty, checkIn: string): boolean {
  return createRandom(seed, 'sold-out', property.propertyId, checkIn).chance(SOLD_OUT_SHARE);
}

/**
 * The rates of a hotel for the dates and rooms, cheapest first, the same for the same input: each room
 * type that fits every room, in each of its boards, refundable while free cancellation is still ahead
 * and non-refundable. Empty when the hotel is sold out for the check-in date.
 */
export function quoteFares(input: QuoteFaresInput): QuotedFare[] {
  const { seed, property, checkIn, checkOut, rooms, bookingProfile, now } = input;
  const currency = quoteCurrency(property, input.currency);
  const converted = currency !== property.currency;
  const nights = nightsBetween(checkIn, checkOut);
  if (nights < 1 || isSoldOut(seed, property, checkIn)) return [];
  const deadline = zonedInstant(addDays(checkIn, -property.freeCancellationDays), 18 * 60, property.timeZone);
  const freeCancellationAhead = deadline.getTime() > now.getTime();
  const corporate = !bookingProfile && property.stars >= 3;
  const roomsKey = JSON.stringify(rooms.map((room) => [room.adults, [...room.childrenAges].sort()]));
  const fares: QuotedFare[] = [];
  for (const roomType of property.roomTypes) {
    if (!rooms.every((room) => fits(roomType, room))) continue;
    const availability = createRandom(seed, 'room-availability', property.propertyId, roomType.name, checkIn);
    if (availability.chance(0.2)) continue;
    const roomsLeft = availability.int(rooms.length, rooms.length + 8);
    const stayPriceEur = roomPriceEur(property, roomType, rooms, checkIn, nights);
    for (const board of roomType.boards) {
      const boardPriceEur = boardPriceEurFor(property, board, rooms, nights);
      const refundableEur = (stayPriceEur + boardPriceEur) * (corporate ? CORPORATE_DISCOUNT : 1);
      const variants = freeCancellationAhead ? [true, false] : [false];
      for (const refundable of variants) {
        const totalEur = refundable ? refundableEur : refundableEur * NON_REFUNDABLE_DISCOUNT;
        fares.push({
          fareId: createRandom(
            seed,
            'fare',
            property.propertyId,
            checkIn,
            checkOut,
            roomsKey,
            roomType.name,
            board,
            String(refundable),
            String(bookingProfile),
            ...(converted ? [currency] : []),
          ).uuid(),
          propertyId: property.propertyId,
          roomName: roomType.name,
          bedType: roomType.bedType,
          board,
          cancellation: {
            refundable,
            freeCancellationUntil: refundable ? deadline.toISOString() : null,
          },
          nightlyPrice: fromEuros(totalEur / nights, currency),
          totalPrice: fromEuros(totalEur, currency),
          currency,
          nights,
          roomsLeft,
          corporateRate: corporate && refundable,
          timeZone: property.timeZone,
          dueAtProperty: cityTax(property, rooms, nights),
          ...(converted && {
            propertyPrice: {
              nightlyPrice: fromEuros(totalEur / nights, property.currency),
              totalPrice: fromEuros(totalEur, property.currency),
              currency: property.currency,
            },
          }),
        });
      }
    }
  }
  return fares.sort((a, b) => a.totalPrice - b.totalPrice || a.roomName.localeCompare(b.roomName));
}

/** The currency a rate is quoted in: the traveler's when the service can convert into it, else the hotel's. */
function quoteCurrency(property: StayProperty, asked: string | undefined): string {
  return asked && RATED_CURRENCIES.includes(asked) ? asked : property.currency;
}

const CITY_TAX_PER_PERSON_NIGHT_EUR = 1.5;

/** The city tax the hotel collects on site: per adult and night, more for more stars. */
function cityTax(property: StayProperty, rooms: readonly StayRoom[], nights: number): DueAtProperty {
  const adults = rooms.reduce((sum, room) => sum + room.adults, 0);
  const perNightEur = CITY_TAX_PER_PERSON_NIGHT_EUR * (1 + (property.stars - 2) * 0.5);
  return {
    amount: fromEuros(perNightEur * adults * nights, property.currency),
    currency: property.currency,
    description: `City tax for ${adults} adult${adults === 1 ? '' : 's'} and ${nights} night${nights === 1 ? '' : 's'}, paid at the hotel`,
    kind: 'city_tax',
    adults,
    nights,
  };
}

function fits(roomType: StayRoomType, room: StayRoom): boolean {
  return room.adults <= roomType.maxAdults && room.adults + room.childrenAges.length <= roomType.maxOccupancy;
}

/** Room price over the stay, for every room: weekend and season factors per night, occupancy per room. */
function roomPriceEur(
  property: StayProperty,
  roomType: StayRoomType,
  rooms: readonly StayRoom[],
  checkIn: string,
  nights: number,
): number {
  let nightsFactor = 0;
  for (let night = 0; night < nights; night++) {
    const date = new Date(`${addDays(checkIn, night)}T00:00:00Z`);
    const weekend = date.getUTCDay() === 5 || date.getUTCDay() === 6 ? 1.12 : 1;
    nightsFactor += weekend * seasonFactor(date.getUTCMonth());
  }
  const occupancy = rooms.reduce((sum, room) => sum + occupancyFactor(room), 0);
  return property.baseNightlyEur * roomType.priceFactor * nightsFactor * occupancy;
}

function occupancyFactor(room: StayRoom): number {
  const adults = room.adults === 1 ? 0.9 : 1 + (room.adults - 2) * 0.25;
  const children = room.childrenAges.filter((age) => age >= 3).length * 0.12;
  return adults + children;
}

function seasonFactor(month: number): number {
  if (month === 6 || month === 7) return 1.25;
  if (month === 11) return 1.15;
  if (month === 0 || month === 1) return 0.9;
  return 1;
}

function boardPriceEurFor(
  property: StayProperty,
  board: string,
  rooms: readonly StayRoom[],
  nights: number,
): number {
  const perPerson = (BOARD_PER_PERSON_EUR[board] ?? 0) * (0.7 + property.stars * 0.15);
  const cityPriceLevel = property.baseNightlyEur / midpointEur(property.stars);
  const people = rooms.reduce((sum, room) => sum + room.adults + room.childrenAges.length * 0.5, 0);
  return perPerson * people * nights * cityPriceLevel;
}

function midpointEur(stars: number): number {
  return { 2: 70, 3: 110, 4: 180, 5: 360 }[stars] ?? 110;
}
