import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CURRENCIES } from '#shared/api/flight-values.ts';
import type { FlightOffer } from '#shared/api/flights.ts';
import type { Segment } from '#shared/api/trips.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useT, type Translate } from '../../../i18n/use-t.ts';
import { flightSearchQuery } from '../../../lib/flight-search-query.ts';
import { addDays, dayOffset, type Formatters } from '../../../lib/intl-format.ts';
import { offerName, otherFlights, type OtherFlight } from './other-flights.ts';
import { rebookingQueries } from './rebooking-queries.ts';
import { RebookingReview } from './rebooking-review.tsx';
import './rebooking.css';

export interface OtherFlightsListProps {
  tripId: string;
  /** The flight to replace. */
  leg: Segment;
  /** Its trip's segments, in timeline order. */
  segments: readonly Segment[];
  format: Formatters;
}

/** The other flights of an opened "See other flights": searched, marked, chosen, reviewed and confirmed. */
export function OtherFlightsList({ tripId, leg, segments, format }: OtherFlightsListProps) {
  const t = useT();
  const [chosen, setChosen] = useState<FlightOffer>();
  const booking = useQuery(rebookingQueries.legBooking(leg));
  const day = leg.scheduledDeparture.slice(0, 10);
  const days = [day, addDays(day, 1)];
  const bookedIn = booking.data?.totalPrice.currency;
  const currency = CURRENCIES.find((known) => known === bookedIn);
  const searches = useQueries({
    queries: days.map((date) => ({
      ...flightSearchQuery({
        itinerary: [{ origin: leg.origin.code ?? '', destination: leg.destination.code ?? '', date }],
        passengers: { adults: 1 },
        cabinClass: 'economy',
        ...(currency ? { currency } : {}),
      }),
      enabled: !booking.isPending,
    })),
  });
  const failed = booking.error ?? searches.find((search) => search.isError)?.error;
  if (failed) return <ErrorNotice error={failed} onRetry={() => void booking.refetch()} />;
  if (booking.isPending || searches.some((search) => search.isPending)) {
    return (
      <p className="small muted" role="status">
        {t('rebooking.searching')}
      </p>
    );
  }
  const replaced = booking.data ?? undefined;
  const flights = otherFlights(
    searches.flatMap((search) => search.data?.offers ?? []),
    leg,
    segments,
    replaced?.totalPrice,
  );
  if (chosen) {
    return (
      <RebookingReview
        tripId={tripId}
        offer={chosen}
        replaced={replaced}
        format={format}
        onBack={() => setChosen(undefined)}
      />
    );
  }
  return (
    <section className="other-flights-list" aria-label={t('rebooking.heading', route(leg))}>
      <h4>{t('rebooking.heading', route(leg))}</h4>
      {flights.length === 0 ? (
        <p className="small muted">
          {t('rebooking.none', {
            first: format.calendarDate(days[0]!),
            second: format.calendarDate(days[1]!),
          })}
        </p>
      ) : (
        <ul>
          {flights.map((flight) => (
            <OtherFlightItem
              key={flight.offer.offerId}
              flight={flight}
              format={format}
              t={t}
              onChoose={() => setChosen(flight.offer)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function route(leg: Segment) {
  return { from: leg.origin.code ?? leg.origin.name, to: leg.destination.code ?? leg.destination.name };
}

function OtherFlightItem({
  flight,
  format,
  t,
  onChoose,
}: {
  flight: OtherFlight;
  format: Formatters;
  t: Translate;
  onChoose: () => void;
}) {
  const { offer, keepsTrip, difference } = flight;
  const leg = offer.legs[0]!;
  const name = offerName(offer);
  const days = dayOffset(leg.departureTime, leg.origin.timeZone, leg.arrivalTime, leg.destination.timeZone);
  const price = offer.totalPrice;
  return (
    <li className="card other-flight" aria-label={name}>
      <p>
        <strong>
          {t('rebooking.flightTimes', {
            departure: format.time(leg.departureTime, leg.origin.timeZone),
            from: leg.origin.code,
            arrival: format.time(leg.arrivalTime, leg.destination.timeZone),
            to: leg.destination.code,
          })}
        </strong>
        {days > 0 && <sup className="day-offset">{`+${format.count(days)}`}</sup>}{' '}
        <span className="small muted">
          {format.calendarDate(leg.departureTime.slice(0, 10))} · {name} ·{' '}
          {t('rebooking.stops', { count: leg.stops })}
        </span>
      </p>
      <p className="row other-flight-facts">
        <span className={['chip', keepsTrip ? 'chip-success' : 'chip-warning'].join(' ')}>
          {t(keepsTrip ? 'rebooking.keepsTrip' : 'rebooking.missesTrip')}
        </span>
        <span>
          <strong>{format.money(price.amount, price.currency)}</strong>{' '}
          {difference !== undefined && (
            <span className="small muted">{differenceText(difference, price.currency, format, t)}</span>
          )}
        </span>
        <button
          type="button"
          className="button"
          aria-label={t('rebooking.chooseFlight', { flight: name })}
          onClick={onChoose}
        >
          {t('rebooking.choose')}
        </button>
      </p>
    </li>
  );
}

function differenceText(difference: number, currency: string, format: Formatters, t: Translate): string {
  if (difference === 0) return t('rebooking.samePrice');
  const amount = format.money(Math.abs(difference), currency);
  return t(difference > 0 ? 'rebooking.moreThanBooked' : 'rebooking.lessThanBooked', { amount });
}
