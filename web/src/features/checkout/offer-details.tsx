import type { FlightOffer, FlightOfferLeg } from '#shared/api/flights.ts';
import { RichMessage } from '../../i18n/rich-message.tsx';
import { useT } from '../../i18n/use-t.ts';
import { localDateOf, type Formatters } from '../../lib/intl-format.ts';

type FlightSegment = FlightOfferLeg['segments'][number];

/**
 * One flight of an offer or a booking: "LX 316 ZRH 07:35 → LHR 08:20, Mon, 1 Mar", each time in its
 * airport's zone; a flight that lands on another day than it left says both days
 * ("TL 2777 JFK 16:10, Thu 31 Dec → LHR 4:30, Fri 1 Jan").
 */
export function FlightSegmentLine({ segment, format }: { segment: FlightSegment; format: Formatters }) {
  const departureDate = localDateOf(segment.departureTime, segment.origin.timeZone);
  const arrivalDate = localDateOf(segment.arrivalTime, segment.destination.timeZone);
  const values = {
    flightNumber: segment.flightNumber,
    from: segment.origin.code,
    departure: format.time(segment.departureTime, segment.origin.timeZone),
    to: segment.destination.code,
    arrival: format.time(segment.arrivalTime, segment.destination.timeZone),
    date: format.calendarDate(departureDate),
  };
  return arrivalDate === departureDate ? (
    <RichMessage id="checkout.flightSegment" values={values} components={{ 0: <strong /> }} />
  ) : (
    <RichMessage
      id="checkout.flightSegmentOtherDay"
      values={{ ...values, arrivalDate: format.calendarDate(arrivalDate) }}
      components={{ 0: <strong /> }}
    />
  );
}

/** What a flight offer includes: its flights, fare conditions and baggage per passenger. */
export function OfferDetails({ offer, format }: { offer: FlightOffer; format: Formatters }) {
  const t = useT();
  const baggage = offer.baggage;
  return (
    <div className="checkout-details stack-sm">
      <h4>{t('checkout.flights')}</h4>
      <ul className="checkout-facts">
        {offer.legs.flatMap((leg) =>
          leg.segments.map((segment) => (
            <li key={`${segment.flightNumber}-${segment.departureTime}`}>
              <FlightSegmentLine segment={segment} format={format} />
              {t('checkout.flightOperator', { carrier: segment.carrier.name, aircraft: segment.aircraft })}
            </li>
          )),
        )}
      </ul>
      <h4>{t('checkout.fareConditions')}</h4>
      <ul className="checkout-facts">
        <li>{t(offer.fareConditions.refundable ? 'checkout.refundable' : 'checkout.nonRefundable')}</li>
        <li>{t(offer.fareConditions.changeable ? 'checkout.changeable' : 'checkout.notChangeable')}</li>
      </ul>
      <h4>{t('checkout.baggage')}</h4>
      {baggage ? (
        <ul className="checkout-facts">
          <li>{t('checkout.cabinBags', { count: baggage.cabinBags })}</li>
          <li>
            {baggage.checkedBags === 0
              ? t('checkout.noCheckedBag')
              : t('checkout.checkedBags', { count: baggage.checkedBags, weight: baggage.checkedBagKg })}
          </li>
        </ul>
      ) : (
        <p className="small muted">{t('checkout.baggageUnknown')}</p>
      )}
    </div>
  );
}
