import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { FlightOffer, FlightOfferLeg } from '#shared/api/flights.ts';
import { useT, type Translate } from '../../i18n/use-t.ts';
import { dayOffset, type Formatters } from '../../lib/intl-format.ts';
import { OfferDetails, saveSelection } from '../checkout/index.ts';
import { DetailsDisclosure } from '../../components/details-disclosure.tsx';
import { cabinName } from './cabin-name.ts';
import type { TripType } from './flight-search-params.ts';

function stopsText(leg: FlightOfferLeg, t: Translate): string {
  if (leg.stops === 0) return t('flights.offer.nonstop');
  const via = leg.segments.slice(0, -1).map((segment) => segment.destination.code);
  return via.length
    ? t('flights.offer.stopsVia', { count: leg.stops, via: via.join(', ') })
    : t('flights.offer.stops', { count: leg.stops });
}

/** The time on the ground between each flight of a leg and the next, where the traveler changes planes. */
function layoversOf(leg: FlightOfferLeg): Array<{ airport: string; minutes: number }> {
  return leg.segments.slice(1).flatMap((next, index) => {
    const previous = leg.segments[index];
    if (!previous) return [];
    const minutes = (Date.parse(next.departureTime) - Date.parse(previous.arrivalTime)) / 60_000;
    return Number.isFinite(minutes) ? [{ airport: previous.destination.code, minutes }] : [];
  });
}

/**
 * What a leg of an offer is called, so the way out and the way back (or each flight of a multi-city
 * trip) are told apart by eye and by a screen reader; the one leg of a one-way trip needs no name.
 */
function legTitle(tripType: TripType, index: number, t: Translate): string | null {
  if (tripType === 'one-way') return null;
  if (tripType === 'return') return index === 0 ? t('flights.offer.outbound') : t('flights.offer.return');
  return t('flights.offer.numbered', { number: index + 1 });
}

function LegRow({
  leg,
  title,
  format,
  t,
}: {
  leg: FlightOfferLeg;
  title: string | null;
  format: Formatters;
  t: Translate;
}) {
  const titleId = useId();
  const days = dayOffset(leg.departureTime, leg.origin.timeZone, leg.arrivalTime, leg.destination.timeZone);
  const carriers = [...new Set(leg.segments.map((segment) => segment.carrier.name))].join(', ');
  const numbers = leg.segments.map((segment) => segment.flightNumber).join(' · ');
  return (
    <div className="leg-row" role={title ? 'group' : undefined} aria-labelledby={title ? titleId : undefined}>
      {title && (
        <p id={titleId} className="leg-title">
          {title}
        </p>
      )}
      <div className="leg-times">
        <span className="leg-time">
          <span>{format.time(leg.departureTime, leg.origin.timeZone)}</span>
          <span className="leg-code">{leg.origin.code}</span>
        </span>
        <span className="leg-line" aria-hidden="true" />
        <span className="leg-time">
          <span>{format.time(leg.arrivalTime, leg.destination.timeZone)}</span>
          {days !== 0 && (
            <sup
              className="day-offset"
              aria-label={
                days > 0 ? t('flights.offer.daysLater', { count: days }) : t('flights.offer.dayBefore')
              }
            >
              {days > 0 ? `+${format.count(days)}` : format.count(days)}
            </sup>
          )}
          <span className="leg-code">{leg.destination.code}</span>
        </span>
      </div>
      <div className="leg-facts small">
        <span>{format.duration(leg.durationMinutes)}</span>
        <span className={leg.stops === 0 ? 'chip chip-success' : 'chip'}>{stopsText(leg, t)}</span>
        {layoversOf(leg).map((layover, index) => (
          <span key={index}>
            {t('flights.offer.layover', {
              airport: layover.airport,
              duration: format.duration(layover.minutes),
            })}
          </span>
        ))}
        <span className="muted">
          {carriers} · {numbers}
        </span>
        <span className="muted">{format.calendarDate(leg.departureTime.slice(0, 10))}</span>
      </div>
    </div>
  );
}

export function OfferCard({
  offer,
  tripType,
  format,
  adults,
}: {
  offer: FlightOffer;
  /** The search's kind of trip, which names each leg: outbound and return, or flight 1, 2, 3. */
  tripType: TripType;
  format: Formatters;
  adults: number;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const t = useT();
  const book = () => {
    const offerId = saveSelection({
      kind: 'flight',
      offer,
      returnTo: `${location.pathname}${location.search}`,
    });
    void navigate(`/checkout/${encodeURIComponent(offerId)}`);
  };
  const first = offer.legs[0];
  const title = first
    ? `${offer.carriers.map((carrier) => carrier.name).join(', ')}, ${format.money(offer.totalPrice.amount, offer.totalPrice.currency)}`
    : offer.offerId;
  return (
    <article className="card offer-card" aria-label={title}>
      <div className="offer-legs">
        <p className="offer-carriers">
          <strong>{offer.carriers.map((carrier) => carrier.name).join(' + ')}</strong>
          <span className="muted small"> · {cabinName(offer.cabinClass, t)}</span>
        </p>
        {offer.legs.map((leg, index) => (
          <LegRow key={index} leg={leg} title={legTitle(tripType, index, t)} format={format} t={t} />
        ))}
        <DetailsDisclosure
          label={
            <>
              {t('flights.offer.details')}
              <span className="visually-hidden">: {title}</span>
            </>
          }
        >
          <OfferDetails offer={offer} format={format} />
          <button type="button" className="button" onClick={book}>
            {t('flights.offer.book')}
            <span className="visually-hidden"> {title}</span>
          </button>
        </DetailsDisclosure>
      </div>
      <div className="offer-price">
        <span className="price">{format.money(offer.totalPrice.amount, offer.totalPrice.currency)}</span>
        <span className="small muted">
          {adults > 1
            ? t('flights.offer.perAdult', {
                price: format.money(offer.pricePerAdult.amount, offer.pricePerAdult.currency),
              })
            : t('flights.offer.total')}
        </span>
        <ul className="offer-conditions">
          <li className={offer.fareConditions.refundable ? 'chip chip-success' : 'chip'}>
            {offer.fareConditions.refundable
              ? t('flights.offer.refundable')
              : t('flights.offer.nonRefundable')}
          </li>
          <li className={offer.fareConditions.changeable ? 'chip chip-success' : 'chip'}>
            {offer.fareConditions.changeable ? t('flights.offer.changeable') : t('flights.offer.noChanges')}
          </li>
        </ul>
        {offer.seatsLeft > 0 && offer.seatsLeft <= 4 && (
          <span className="small warning-text">
            {t('flights.offer.seatsLeft', { count: offer.seatsLeft })}
          </span>
        )}
      </div>
    </article>
  );
}
