import type { FlightOffer } from '#shared/api/flights.ts';
import type { Formatters } from '../../lib/intl-format.ts';

/** What a flight offer includes: its flights, fare conditions and baggage per passenger. */
export function OfferDetails({ offer, format }: { offer: FlightOffer; format: Formatters }) {
  const baggage = offer.baggage;
  return (
    <div className="checkout-details stack-sm">
      <h4>Flights</h4>
      <ul className="checkout-facts">
        {offer.legs.flatMap((leg) =>
          leg.segments.map((segment) => (
            <li key={`${segment.flightNumber}-${segment.departureTime}`}>
              <strong>{segment.flightNumber}</strong> {segment.origin.code}{' '}
              {format.time(segment.departureTime, segment.origin.timeZone)} → {segment.destination.code}{' '}
              {format.time(segment.arrivalTime, segment.destination.timeZone)},{' '}
              {format.calendarDate(segment.departureTime.slice(0, 10))} · {segment.carrier.name} ·{' '}
              {segment.aircraft}
            </li>
          )),
        )}
      </ul>
      <h4>Fare conditions</h4>
      <ul className="checkout-facts">
        <li>
          {offer.fareConditions.refundable
            ? 'Refundable: cancel before departure for a full refund'
            : 'Non-refundable: cancelling keeps the whole price'}
        </li>
        <li>{offer.fareConditions.changeable ? 'Changes allowed' : 'No changes to dates or flights'}</li>
      </ul>
      <h4>Baggage per passenger</h4>
      {baggage ? (
        <ul className="checkout-facts">
          <li>
            {baggage.cabinBags} cabin {baggage.cabinBags === 1 ? 'bag' : 'bags'}
          </li>
          <li>
            {baggage.checkedBags === 0
              ? 'No checked bag included'
              : `${baggage.checkedBags} checked ${baggage.checkedBags === 1 ? 'bag' : 'bags'} up to ${baggage.checkedBagKg} kg`}
          </li>
        </ul>
      ) : (
        <p className="small muted">The airline has not said which bags this fare includes.</p>
      )}
    </div>
  );
}
