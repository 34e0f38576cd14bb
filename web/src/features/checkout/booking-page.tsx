import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import type { BookingDetails } from '#shared/api/booking-operations.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { BookingStatusChip } from '../bookings/booking-status-chip.tsx';
import { useTravelerFormatters } from '../profile/use-traveler-formatters.ts';
import { boardLabel } from '../stays/board-label.ts';
import { useT } from '../../i18n/use-t.ts';
import { checkoutQueries, useCancelBooking } from './checkout-queries.ts';
import { zoneLabel } from './rate-details.tsx';
import './checkout.css';

/** One booking: the confirmation right after booking, what was booked, and cancelling by its rules. */
export function BookingPage() {
  const { bookingId = '' } = useParams();
  const [params] = useSearchParams();
  const format = useTravelerFormatters();
  const booking = useQuery(checkoutQueries.booking(bookingId));
  useDocumentTitle(booking.data ? `Booking ${booking.data.reference}` : 'Booking');

  if (booking.isPending) {
    return <div className="page" aria-busy="true" />;
  }
  if (booking.isError) {
    return (
      <div className="page stack">
        <h1>Booking</h1>
        <ErrorNotice error={booking.error} onRetry={() => void booking.refetch()} />
      </div>
    );
  }
  const details = booking.data;
  const confirmed = params.get('confirmed') === '1' && details.status !== 'cancelled';
  return (
    <div className="page stack checkout-page">
      <p>
        <Link to="/bookings">← All bookings</Link>
      </p>
      {confirmed && (
        <div className="notice notice-success" role="status">
          <h2>Booking confirmed</h2>
          <p>
            Your reference is <strong className="mono">{details.reference}</strong>. A confirmation is in your
            inbox.
          </p>
        </div>
      )}
      <header className="stack-sm">
        <p className="small muted">
          {details.vertical === 'stay' ? 'Stay' : 'Flight'} ·{' '}
          {details.bookingProfile ? 'Personal' : 'Business'} · Ref{' '}
          <span className="mono">{details.reference}</span>
        </p>
        <h1>{details.title}</h1>
        <p className="row">
          <BookingStatusChip status={details.status} />
          <span>{format.money(details.totalPrice.amount, details.totalPrice.currency)}</span>
          <span>
            {format.calendarDate(details.startDate, 'long')}
            {details.endDate === details.startDate
              ? ''
              : ` – ${format.calendarDate(details.endDate, 'long')}`}
          </span>
        </p>
        {details.tripId && (
          <p>
            <Link to={`/trips/${encodeURIComponent(details.tripId)}`}>Open the trip</Link>
          </p>
        )}
      </header>
      <BookedItem details={details} format={format} />
      <Cancellation details={details} format={format} />
    </div>
  );
}

function BookedItem({ details, format }: { details: BookingDetails; format: Formatters }) {
  const t = useT();
  return (
    <section className="card stack-sm" aria-labelledby="booked-item">
      <h2 id="booked-item">What you booked</h2>
      {details.flight && (
        <ul className="checkout-facts">
          {details.flight.legs.flatMap((leg) =>
            leg.segments.map((segment) => (
              <li key={`${segment.flightNumber}-${segment.departureTime}`}>
                <strong>{segment.flightNumber}</strong> {segment.origin.code}{' '}
                {format.time(segment.departureTime, segment.origin.timeZone)} → {segment.destination.code}{' '}
                {format.time(segment.arrivalTime, segment.destination.timeZone)},{' '}
                {format.calendarDate(segment.departureTime.slice(0, 10))}
              </li>
            )),
          )}
        </ul>
      )}
      {details.stay && (
        <ul className="checkout-facts">
          <li>{details.stay.address}</li>
          <li>
            {details.stay.roomName}, {boardLabel(details.stay.board, t)}
          </li>
          <li>
            {details.stay.dueAtProperty.amount > 0
              ? `Paid at the hotel: ${format.money(details.stay.dueAtProperty.amount, details.stay.dueAtProperty.currency)} (${details.stay.dueAtProperty.description})`
              : 'Nothing is due at the hotel'}
          </li>
        </ul>
      )}
      {details.traveler && (
        <p className="small">
          Traveler: {details.traveler.name}, {details.traveler.email}
        </p>
      )}
      {details.paymentMethod && (
        <p className="small">
          Paid with {details.paymentMethod.label} ending {details.paymentMethod.last4}
        </p>
      )}
    </section>
  );
}

function Cancellation({ details, format }: { details: BookingDetails; format: Formatters }) {
  const cancel = useCancelBooking();
  const [confirming, setConfirming] = useState(false);
  const terms = details.cancellationTerms;
  const money = (value: { amount: number; currency: string }) => format.money(value.amount, value.currency);
  const zone = details.stay?.timeZone;

  if (details.cancellation) {
    return (
      <section className="card stack-sm" aria-labelledby="cancellation">
        <h2 id="cancellation">Cancelled</h2>
        <p role="status">
          Cancelled on {format.dateTime(details.cancellation.cancelledAt)}. Refund{' '}
          {money(details.cancellation.refund)}, fee {money(details.cancellation.fee)}.
        </p>
      </section>
    );
  }
  if (!terms) {
    return details.status === 'cancelled' ? null : (
      <p className="small muted">This booking cannot be cancelled online; contact support to change it.</p>
    );
  }
  return (
    <section className="card stack-sm" aria-labelledby="cancellation">
      <h2 id="cancellation">Cancel</h2>
      <p>
        Cancelling now: refund <strong>{money(terms.refund)}</strong>, fee <strong>{money(terms.fee)}</strong>
        .
        {terms.freeUntil &&
          ` Free until ${zone ? `${format.dateTime(terms.freeUntil, zone)} (${zoneLabel(zone)})` : format.dateTime(terms.freeUntil)}.`}
      </p>
      {cancel.isError && <ErrorNotice error={cancel.error} />}
      {confirming ? (
        <div className="row" role="group" aria-label="Confirm the cancellation">
          <button
            type="button"
            className="button button-danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(details.bookingId)}
          >
            {cancel.isPending ? 'Cancelling…' : 'Yes, cancel this booking'}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="row">
          <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
            Cancel booking
          </button>
        </div>
      )}
    </section>
  );
}
