import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import type { BookingDetails } from '#shared/api/booking-operations.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useFocusOnAppear } from '../../lib/use-focus-on-appear.ts';
import { RichMessage } from '../../i18n/rich-message.tsx';
import { useT, type Translate } from '../../i18n/use-t.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useShownOnPage } from '../../lib/shown-on-page.ts';
import { BookingStatusChip } from '../../components/booking-status-chip.tsx';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { boardLabel } from '../../lib/board-label.ts';
import { checkoutQueries, useCancelBooking } from './checkout-queries.ts';
import { FlightSegmentLine } from './offer-details.tsx';
import { HOTEL_WORDS, hotelDateTime } from './rate-details.tsx';
import { dueAtPropertyText } from './due-at-property-text.ts';
import { bookingName } from '../../lib/booking-name.ts';
import { bookingCities } from '../../lib/city-name.ts';
import { TextInLanguage } from '../../components/text-in-language.tsx';
import './checkout.css';

/** One booking: the confirmation right after booking, what was booked, and cancelling by its rules. */
export function BookingPage() {
  const { bookingId = '' } = useParams();
  const [params] = useSearchParams();
  const t = useT();
  const format = useTravelerFormatters();
  const booking = useQuery(checkoutQueries.booking(bookingId));
  // The page shows the booking's state: confirmed, changed or cancelled, no toast repeats it.
  useShownOnPage(booking.data ? { kind: 'booking', reference: booking.data.reference } : null);
  useDocumentTitle(
    booking.data
      ? t('checkout.bookingTitle', { reference: booking.data.reference })
      : t('checkout.bookingHeading'),
  );

  if (booking.isPending) {
    return <div className="page" aria-busy="true" />;
  }
  if (booking.isError) {
    return (
      <div className="page stack">
        <h1>{t('checkout.bookingHeading')}</h1>
        <ErrorNotice error={booking.error} onRetry={() => void booking.refetch()} />
      </div>
    );
  }
  const details = booking.data;
  const confirmed = params.get('confirmed') === '1' && details.status !== 'cancelled';
  return (
    <div className="page stack checkout-page">
      <p>
        <Link to="/bookings">{t('checkout.allBookings')}</Link>
      </p>
      {confirmed && (
        <div className="notice notice-success" role="status">
          <h2>{t('checkout.confirmed.title')}</h2>
          <p>
            <RichMessage
              id="checkout.confirmed.text"
              values={{ reference: details.reference }}
              components={{ 0: <strong className="mono" /> }}
            />
          </p>
        </div>
      )}
      <header className="stack-sm">
        <p className="small muted">
          {t('bookings.kicker', {
            kind: t(details.vertical === 'stay' ? 'bookingVertical.stay' : 'bookingVertical.flight'),
            travel: t(details.bookingProfile ? 'bookings.travel.personal' : 'bookings.travel.business'),
          })}{' '}
          <span className="mono">{details.reference}</span>
        </p>
        <h1>
          <TextInLanguage value={bookingName(bookingNameFacts(details), t)} />
        </h1>
        <p className="row">
          <BookingStatusChip status={details.status} />
          <span>{format.money(details.totalPrice.amount, details.totalPrice.currency)}</span>
          <span>{format.calendarRange(details.startDate, details.endDate, 'long')}</span>
        </p>
        {details.tripId && (
          <p>
            <Link to={`/trips/${encodeURIComponent(details.tripId)}`}>{t('checkout.openTrip')}</Link>
          </p>
        )}
      </header>
      <BookedItem details={details} format={format} t={t} />
      <Cancellation details={details} format={format} t={t} />
    </div>
  );
}

interface SectionProps {
  details: BookingDetails;
  format: Formatters;
  t: Translate;
}

/**
 * What the booking's name is written from: its kind, and a flight's cities in the order it reaches them,
 * in the interface's language when the travel API names them so.
 */
function bookingNameFacts(details: BookingDetails) {
  const { city, route } = bookingCities(details);
  const legs = details.flight?.legs ?? [];
  const cities = route ?? [
    ...legs.map((leg) => leg.origin.city),
    ...legs.slice(-1).map((leg) => leg.destination.city),
  ];
  return { kind: details.vertical, title: details.title, city, cities };
}

function BookedItem({ details, format, t }: SectionProps) {
  return (
    <section className="card stack-sm" aria-labelledby="booked-item">
      <h2 id="booked-item">{t('checkout.whatYouBooked')}</h2>
      {details.flight && (
        <ul className="checkout-facts">
          {details.flight.legs.flatMap((leg) =>
            leg.segments.map((segment) => (
              <li key={`${segment.flightNumber}-${segment.departureTime}`}>
                <FlightSegmentLine segment={segment} format={format} />
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
            {details.stay.dueAtProperty.amount > 0 ? (
              <RichMessage
                id="checkout.paidAtHotelAmount"
                values={{
                  amount: format.money(
                    details.stay.dueAtProperty.amount,
                    details.stay.dueAtProperty.currency,
                  ),
                  description: dueAtPropertyText(details.stay.dueAtProperty, t).text,
                }}
                components={{
                  0: dueAtPropertyText(details.stay.dueAtProperty, t).lang ? HOTEL_WORDS : <span />,
                }}
              />
            ) : (
              t('checkout.nothingDueAtHotel')
            )}
          </li>
        </ul>
      )}
      {details.traveler && (
        <p className="small">
          {t('checkout.bookedTraveler', { name: details.traveler.name, email: details.traveler.email })}
        </p>
      )}
      {details.paymentMethod && (
        <p className="small">
          {t('checkout.paidWith', {
            label: details.paymentMethod.label,
            last4: details.paymentMethod.last4,
          })}
        </p>
      )}
    </section>
  );
}

function Cancellation({ details, format, t }: SectionProps) {
  const cancel = useCancelBooking();
  const focusOnAppear = useFocusOnAppear<HTMLParagraphElement>();
  const [confirming, setConfirming] = useState(false);
  const terms = details.cancellationTerms;
  const money = (value: { amount: number; currency: string }) => format.money(value.amount, value.currency);
  const zone = details.stay?.timeZone;

  if (details.cancellation) {
    return (
      <section className="card stack-sm" aria-labelledby="cancellation">
        <h2 id="cancellation">{t('checkout.cancelled')}</h2>
        <p role="status" {...(cancel.isSuccess ? { tabIndex: -1, ref: focusOnAppear } : {})}>
          {t('checkout.cancelledOn', {
            when: format.dateTime(details.cancellation.cancelledAt),
            refund: money(details.cancellation.refund),
            fee: money(details.cancellation.fee),
          })}
        </p>
      </section>
    );
  }
  if (!terms) {
    return details.status === 'cancelled' ? null : (
      <p className="small muted">{t('checkout.notCancellableOnline')}</p>
    );
  }
  return (
    <section className="card stack-sm" aria-labelledby="cancellation">
      <h2 id="cancellation">{t('checkout.cancel')}</h2>
      <p>
        <RichMessage
          id={terms.freeUntil ? 'checkout.cancelNowFreeUntil' : 'checkout.cancelNow'}
          values={{
            refund: money(terms.refund),
            fee: money(terms.fee),
            when: terms.freeUntil ? hotelDateTime(terms.freeUntil, zone, format, t) : '',
          }}
          components={{ 0: <strong />, 1: <strong /> }}
        />
      </p>
      {cancel.isError && <ErrorNotice error={cancel.error} takeFocus />}
      {confirming ? (
        <div
          className="row"
          role="group"
          aria-label={t('checkout.confirmCancellation')}
          tabIndex={-1}
          ref={focusOnAppear}
        >
          <button
            type="button"
            className="button button-danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(details.bookingId)}
          >
            {cancel.isPending ? t('checkout.cancelling') : t('checkout.yesCancel')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            {t('checkout.keepIt')}
          </button>
        </div>
      ) : (
        <div className="row">
          <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
            {t('checkout.cancelBooking')}
          </button>
        </div>
      )}
    </section>
  );
}
