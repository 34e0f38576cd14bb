import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import {
  CABIN_CLASSES,
  CURRENCIES,
  FLIGHT_BOOKING_HORIZON_DAYS,
  MAX_ITINERARY_LEGS,
  MAX_PASSENGERS,
} from './flight-values.ts';
import { LocaleSchema } from './locale.ts';

export { CABIN_CLASSES, CURRENCIES, FLIGHT_BOOKING_HORIZON_DAYS, MAX_ITINERARY_LEGS, MAX_PASSENGERS };

export const CabinClassSchema = z.enum(CABIN_CLASSES);
export type CabinClass = z.infer<typeof CabinClassSchema>;

export const CurrencySchema = z.enum(CURRENCIES);

export const IsoDateSchema = z.iso.date();
export const AirportCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'Expected a three-letter IATA airport code')
  .transform((code) => code.toUpperCase());

export const FlightLegRequestSchema = z
  .object({
    origin: AirportCodeSchema,
    destination: AirportCodeSchema,
    date: IsoDateSchema,
  })
  .refine((leg) => leg.origin !== leg.destination, {
    path: ['destination'],
    message: 'Destination must differ from origin',
    params: { rule: 'different_from_origin' },
  });

export const PassengersSchema = z.object({
  adults: z.number().int().min(1).max(MAX_PASSENGERS),
  children: z
    .number()
    .int()
    .min(0)
    .max(MAX_PASSENGERS - 1)
    .default(0),
  infants: z
    .number()
    .int()
    .min(0)
    .max(MAX_PASSENGERS - 1)
    .default(0),
});

/**
 * Body of POST /v1/flights/search. One leg is one-way, two legs a return or open jaw, more a multi-city
 * trip. Dates are the origins' local dates, in order, from today to 361 days ahead.
 */
export const FlightSearchRequestSchema = z
  .object({
    itinerary: z.array(FlightLegRequestSchema).min(1).max(MAX_ITINERARY_LEGS),
    passengers: PassengersSchema,
    cabinClass: CabinClassSchema,
    currency: CurrencySchema.default('EUR'),
  })
  .superRefine((request, ctx) => {
    const { adults, children, infants } = request.passengers;
    if (adults + children > MAX_PASSENGERS) {
      ctx.addIssue({
        code: 'custom',
        path: ['passengers', 'children'],
        message: `At most ${MAX_PASSENGERS} seated passengers`,
        params: { rule: 'less_than_equal' },
      });
    }
    if (infants > adults) {
      ctx.addIssue({
        code: 'custom',
        path: ['passengers', 'infants'],
        message: 'Each infant travels on an adult’s lap',
        params: { rule: 'less_than_equal' },
      });
    }
    request.itinerary.forEach((leg, index) => {
      const previous = request.itinerary[index - 1];
      if (previous && leg.date < previous.date) {
        ctx.addIssue({
          code: 'custom',
          path: ['itinerary', index, 'date'],
          message: 'Legs must be in date order',
          params: { rule: 'greater_than_equal' },
        });
      }
    });
  });
export type FlightSearchRequest = z.input<typeof FlightSearchRequestSchema>;
export type ParsedFlightSearchRequest = z.output<typeof FlightSearchRequestSchema>;

export const AirportSchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  city: z.string(),
  country: z.string(),
  countryCode: z.string().nullable(),
  timeZone: z.string(),
  latitude: z.number(),
  longitude: z.number(),
});
export type Airport = z.infer<typeof AirportSchema>;

/** GET /v1/flights/airports?query= (additive): airports matching a code, city or name. */
export const AirportSearchQuerySchema = z.object({
  query: plainText().trim().min(1).max(64),
  limit: z.coerce.number().int().min(1).max(20).default(10),
  /** The traveler's locale (additive): cities match and are named in its language as well as English. */
  locale: LocaleSchema.optional(),
});
export const AirportListSchema = z.looseObject({ items: z.array(AirportSchema) });
export type AirportList = z.infer<typeof AirportListSchema>;

export const MoneySchema = z.looseObject({
  /** Decimal amount in the currency's major unit, rounded to its minor unit. */
  amount: z.number(),
  currency: z.string(),
});
export type Money = z.infer<typeof MoneySchema>;

export const CarrierSchema = z.looseObject({ code: z.string(), name: z.string() });
export type Carrier = z.infer<typeof CarrierSchema>;

/** An airport as a flight refers to it. */
export const AirportRefSchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  city: z.string(),
  timeZone: z.string(),
});
export type AirportRef = z.infer<typeof AirportRefSchema>;

/**
 * One flight. Times are local to the airport, ISO 8601 with that airport's UTC offset
 * (`2026-12-01T07:35:00+01:00`), so both the wall-clock time and the instant are exact.
 */
export const FlightSegmentSchema = z.looseObject({
  carrier: CarrierSchema,
  flightNumber: z.string(),
  origin: AirportRefSchema,
  destination: AirportRefSchema,
  departureTime: z.string(),
  arrivalTime: z.string(),
  durationMinutes: z.number().int(),
  aircraft: z.string(),
  cabinClass: z.string(),
});
export type FlightSegment = z.infer<typeof FlightSegmentSchema>;

export const FlightOfferLegSchema = z.looseObject({
  origin: AirportRefSchema,
  destination: AirportRefSchema,
  departureTime: z.string(),
  arrivalTime: z.string(),
  /** Door-to-door time of the leg, layovers included. */
  durationMinutes: z.number().int(),
  stops: z.number().int().min(0),
  segments: z.array(FlightSegmentSchema).min(1),
});
export type FlightOfferLeg = z.infer<typeof FlightOfferLegSchema>;

/** Bags included in a fare, per passenger. */
export const BaggageSchema = z.looseObject({
  cabinBags: z.number().int().min(0),
  checkedBags: z.number().int().min(0),
  checkedBagKg: z.number().int().min(0),
});
export type Baggage = z.infer<typeof BaggageSchema>;

export const FlightOfferSchema = z.looseObject({
  offerId: z.string(),
  /** One entry per requested leg, in request order. */
  legs: z.array(FlightOfferLegSchema).min(1),
  cabinClass: z.string(),
  /** Price for all passengers of the request. */
  totalPrice: MoneySchema,
  pricePerAdult: MoneySchema,
  carriers: z.array(CarrierSchema),
  fareConditions: z.looseObject({ refundable: z.boolean(), changeable: z.boolean() }),
  /** Additive: the bags the fare includes per passenger; older servers may omit it. */
  baggage: BaggageSchema.optional(),
  seatsLeft: z.number().int().min(0),
  expiresAt: z.iso.datetime(),
});
export type FlightOffer = z.infer<typeof FlightOfferSchema>;

/** Response of POST /v1/flights/search: every offer, cheapest first. */
export const FlightSearchResponseSchema = z.looseObject({
  searchId: z.string(),
  currency: z.string(),
  offers: z.array(FlightOfferSchema),
});
export type FlightSearchResponse = z.infer<typeof FlightSearchResponseSchema>;
