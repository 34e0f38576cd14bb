import type { CancellationTerms } from '#shared/upstream/booking-operations.ts';
import type { Booking } from '#shared/upstream/bookings.ts';
import type { Money } from '#shared/upstream/flights.ts';
import { roundToMinorUnit } from '../money.ts';
import { zonedInstant } from '../time-zones.ts';
import { STAY_CHECK_IN_MINUTE } from './booking-plans.ts';
import type { FlightQuote, StayQuote } from './quote-store.ts';

/**
 * What cancelling at `now` gives: a flight's refundable fare is refunded in full until departure, another
 * keeps everything; a stay's refundable rate is free until its deadline, then costs the first night until
 * check-in; a non-refundable rate keeps everything. Null once the trip has started.
 */
export function cancellationTerms(
  booking: Pick<Booking, 'totalPrice'>,
  quote: FlightQuote | StayQuote,
  now: Date,
): CancellationTerms | null {
  const total = booking.totalPrice;
  const money = (amount: number): Money => ({
    amount: roundToMinorUnit(amount, total.currency),
    currency: total.currency,
  });
  if (quote.kind === 'flight') {
    const departure = Date.parse(quote.offer.legs[0]!.departureTime);
    if (now.getTime() >= departure) return null;
    return quote.offer.fareConditions.refundable
      ? { refund: money(total.amount), fee: money(0), freeUntil: new Date(departure).toISOString() }
      : { refund: money(0), fee: money(total.amount), freeUntil: null };
  }
  const checkIn = zonedInstant(quote.checkIn, STAY_CHECK_IN_MINUTE, quote.property.timeZone).getTime();
  if (now.getTime() >= checkIn) return null;
  const { refundable, freeCancellationUntil } = quote.fare.cancellation;
  if (!refundable) return { refund: money(0), fee: money(total.amount), freeUntil: null };
  if (freeCancellationUntil && now.getTime() < Date.parse(freeCancellationUntil)) {
    return {
      refund: money(total.amount),
      fee: money(0),
      freeUntil: new Date(freeCancellationUntil).toISOString(),
    };
  }
  const fee = Math.min(total.amount, quote.fare.nightlyPrice);
  return { refund: money(total.amount - fee), fee: money(fee), freeUntil: null };
}
