import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import type { PaymentMethod, PriceCheck } from '#shared/api/booking-operations.ts';
import type { Profile } from '#shared/api/profile.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { ApiError } from '../../lib/api-error.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { profileQueries } from '../profile/profile-queries.ts';
import { useTravelerFormatters } from '../profile/use-traveler-formatters.ts';
import { checkoutQueries, useCreateBooking } from './checkout-queries.ts';
import { attemptKey, forgetSelection, loadSelection, type CheckoutSelection } from './checkout-selection.ts';
import { OfferDetails } from './offer-details.tsx';
import { RateDetails } from './rate-details.tsx';
import './checkout.css';

/** Checkout of a chosen flight offer or room rate: price check, traveler, payment on file, book once. */
export function CheckoutPage() {
  const { offerId = '' } = useParams();
  const selection = loadSelection(offerId);
  useDocumentTitle('Checkout');
  if (!selection) {
    return (
      <div className="page stack">
        <h1>Checkout</h1>
        <div className="notice notice-warning" role="alert">
          <h2>This choice is no longer here</h2>
          <p>Choose a flight or a room again to book it.</p>
          <p className="row">
            <Link className="button" to="/flights">
              Search flights
            </Link>
            <Link className="button button-secondary" to="/stays">
              Search stays
            </Link>
          </p>
        </div>
      </div>
    );
  }
  return <Checkout offerId={offerId} selection={selection} />;
}

function Checkout({ offerId, selection }: { offerId: string; selection: CheckoutSelection }) {
  const format = useTravelerFormatters();
  const navigate = useNavigate();
  const [run, setRun] = useState(0);
  const price = useQuery(checkoutQueries.priceCheck(offerId, run));
  const profile = useQuery(profileQueries.current());
  const chooseAgain = () => {
    forgetSelection(offerId);
    void navigate(selection.returnTo);
  };

  return (
    <div className="page stack checkout-page">
      <p>
        <Link to={selection.returnTo}>← Back to the choices</Link>
      </p>
      <h1>{selection.kind === 'flight' ? 'Book this flight' : `Book ${selection.hotelName}`}</h1>
      <section className="card stack-sm" aria-labelledby="checkout-choice">
        <h2 id="checkout-choice">Your choice</h2>
        <SelectionSummary selection={selection} format={format} />
      </section>

      {price.isPending ? (
        <p role="status" aria-busy="true">
          Checking the price…
        </p>
      ) : price.isError ? (
        price.error instanceof ApiError && price.error.code === 'OFFER_EXPIRED' ? (
          <ExpiredNotice error={price.error} onChooseAgain={chooseAgain} />
        ) : (
          <ErrorNotice error={price.error} onRetry={() => setRun((value) => value + 1)} />
        )
      ) : profile.isPending ? (
        <p role="status" aria-busy="true">
          Loading your details…
        </p>
      ) : profile.isError ? (
        <ErrorNotice error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <CheckoutForm
          key={`${price.data.price.amount}-${run}`}
          offerId={offerId}
          selection={selection}
          check={price.data}
          profile={profile.data}
          format={format}
          onRecheck={() => setRun((value) => value + 1)}
          onChooseAgain={chooseAgain}
        />
      )}
    </div>
  );
}

function ExpiredNotice({ error, onChooseAgain }: { error: ApiError; onChooseAgain: () => void }) {
  return (
    <ErrorNotice
      error={error}
      title="This offer has expired"
      onChangeSelection={onChooseAgain}
      changeSelectionLabel="Choose again"
    />
  );
}

function SelectionSummary({ selection, format }: { selection: CheckoutSelection; format: Formatters }) {
  if (selection.kind === 'flight') {
    const { offer } = selection;
    return (
      <>
        <p>
          {offer.legs
            .map(
              (leg) =>
                `${leg.origin.city} → ${leg.destination.city}, ${format.calendarDate(leg.departureTime.slice(0, 10), 'long')}`,
            )
            .join(' · ')}
        </p>
        <OfferDetails offer={offer} format={format} />
      </>
    );
  }
  return (
    <>
      <p>
        {format.calendarDate(selection.checkIn, 'long')} – {format.calendarDate(selection.checkOut, 'long')} ·{' '}
        {selection.fare.nights} {selection.fare.nights === 1 ? 'night' : 'nights'}
      </p>
      <RateDetails fare={selection.fare} checkIn={selection.checkIn} format={format} />
    </>
  );
}

interface CheckoutFormProps {
  offerId: string;
  selection: CheckoutSelection;
  check: PriceCheck;
  profile: Profile;
  format: Formatters;
  onRecheck: () => void;
  onChooseAgain: () => void;
}

function CheckoutForm({
  offerId,
  selection,
  check,
  profile,
  format,
  onRecheck,
  onChooseAgain,
}: CheckoutFormProps) {
  const navigate = useNavigate();
  const changed = check.status === 'changed';
  const [acceptedChange, setAcceptedChange] = useState(!changed);
  const [name, setName] = useState(profile.name ?? '');
  const [email, setEmail] = useState(profile.email ?? '');
  const [phone, setPhone] = useState('');
  const [bookingProfile, setBookingProfile] = useState(
    selection.kind === 'stay' ? selection.bookingProfile : profile.bookingProfile,
  );
  const [paymentMethodId, setPaymentMethodId] = useState('');
  const [declined, setDeclined] = useState<string[]>([]);
  const methods = useQuery(checkoutQueries.paymentMethods(bookingProfile));
  const create = useCreateBooking();
  const usable = (methods.data?.items ?? []).filter((method) => !declined.includes(method.paymentMethodId));
  const chosen = usable.find((method) => method.paymentMethodId === paymentMethodId) ?? usable[0];

  const error = create.error instanceof ApiError ? create.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || !acceptedChange || create.isPending) return;
    const request = {
      offerId,
      price: { amount: check.price.amount, currency: check.price.currency },
      paymentMethodId: chosen.paymentMethodId,
      traveler: { name: name.trim(), email: email.trim(), phone: phone.trim() === '' ? null : phone.trim() },
      ...(selection.kind === 'flight' ? { bookingProfile } : {}),
    };
    const key = attemptKey(offerId, JSON.stringify(request));
    create.mutate(
      { key, request },
      {
        onSuccess: (booking) => {
          forgetSelection(offerId);
          void navigate(`/bookings/${booking.bookingId}?confirmed=1`);
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.code === 'PAYMENT_DECLINED') {
            setDeclined((list) => [...list, chosen.paymentMethodId]);
            setPaymentMethodId('');
          }
        },
      },
    );
  };

  return (
    <form className="stack" onSubmit={submit} noValidate aria-labelledby="checkout-pay">
      <section className="card stack-sm" aria-labelledby="checkout-price">
        <h2 id="checkout-price">Price</h2>
        {changed ? (
          <div className="notice notice-warning" role="alert">
            <h3>The price has changed</h3>
            <p>
              Was <del>{format.money(check.previousPrice.amount, check.previousPrice.currency)}</del>, now{' '}
              <strong>{format.money(check.price.amount, check.price.currency)}</strong>.
            </p>
            <label className="row">
              <input
                type="checkbox"
                checked={acceptedChange}
                onChange={(event) => setAcceptedChange(event.target.checked)}
              />
              Book at the new price
            </label>
          </div>
        ) : (
          <p>
            <strong className="price">{format.money(check.price.amount, check.price.currency)}</strong>{' '}
            <span className="muted small">total, price checked just now</span>
          </p>
        )}
      </section>

      <fieldset className="card stack-sm">
        <legend>Traveler</legend>
        <p className="small muted">From your profile; correct anything that is not right for this booking.</p>
        <label className="field">
          <span className="field-label">Full name</span>
          <input
            className="input"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="name"
          />
        </label>
        <label className="field">
          <span className="field-label">Email</span>
          <input
            className="input"
            required
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoComplete="email"
          />
        </label>
        <label className="field">
          <span className="field-label">Phone (optional)</span>
          <input
            className="input"
            type="tel"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            autoComplete="tel"
          />
        </label>
      </fieldset>

      <fieldset className="card stack-sm">
        <legend>Payment</legend>
        {selection.kind === 'flight' ? (
          <div className="row" role="radiogroup" aria-label="Kind of travel">
            {[false, true].map((personal) => (
              <label key={String(personal)} className="row">
                <input
                  type="radio"
                  name="travel-kind"
                  checked={bookingProfile === personal}
                  onChange={() => {
                    setBookingProfile(personal);
                    setPaymentMethodId('');
                  }}
                />
                {personal ? 'Personal travel' : 'Business travel'}
              </label>
            ))}
          </div>
        ) : (
          <p className="small">{bookingProfile ? 'Personal travel' : 'Business travel'}</p>
        )}
        {error?.code === 'PAYMENT_DECLINED' && (
          <ErrorNotice error={error} title="Payment declined: choose another payment method" />
        )}
        {methods.isPending ? (
          <p aria-busy="true">Loading your payment methods…</p>
        ) : methods.isError ? (
          <ErrorNotice error={methods.error} onRetry={() => void methods.refetch()} />
        ) : usable.length === 0 ? (
          <p className="notice notice-warning">No other payment method on file for this kind of travel.</p>
        ) : (
          <div className="stack-sm" role="radiogroup" aria-label="Payment method on file">
            {usable.map((method) => (
              <PaymentChoice
                key={method.paymentMethodId}
                method={method}
                checked={chosen?.paymentMethodId === method.paymentMethodId}
                onChoose={() => setPaymentMethodId(method.paymentMethodId)}
              />
            ))}
          </div>
        )}
      </fieldset>

      {error && error.code === 'BOOKING_CONFLICT' && (
        <ErrorNotice
          error={error}
          title="This booking clashes with one you have"
          onChangeSelection={onChooseAgain}
          changeSelectionLabel="Choose something else"
        />
      )}
      {error && error.code === 'OFFER_EXPIRED' && (
        <ExpiredNotice error={error} onChooseAgain={onChooseAgain} />
      )}
      {error && error.code === 'PRICE_CHANGED' && (
        <ErrorNotice error={error} onRetry={onRecheck} title="The price changed while you were booking" />
      )}
      {create.isError &&
        !['PAYMENT_DECLINED', 'BOOKING_CONFLICT', 'OFFER_EXPIRED', 'PRICE_CHANGED'].includes(
          error?.code ?? '',
        ) && <ErrorNotice error={create.error} title="The booking is not confirmed yet" />}

      <div className="row">
        <button
          id="checkout-pay"
          type="submit"
          className="button"
          disabled={
            create.isPending || !chosen || !acceptedChange || name.trim() === '' || email.trim() === ''
          }
        >
          {create.isPending
            ? 'Booking…'
            : `Book and pay ${format.money(check.price.amount, check.price.currency)}`}
        </button>
      </div>
      <p role="status" className="visually-hidden">
        {create.isPending ? 'Booking, please wait' : ''}
      </p>
    </form>
  );
}

function PaymentChoice({
  method,
  checked,
  onChoose,
}: {
  method: PaymentMethod;
  checked: boolean;
  onChoose: () => void;
}) {
  return (
    <label className="payment-choice row">
      <input type="radio" name="payment-method" checked={checked} onChange={onChoose} />
      <span>
        {method.label} ending {method.last4}
        <span className="small muted">
          {' '}
          · expires {String(method.expiryMonth).padStart(2, '0')}/{method.expiryYear}
        </span>
      </span>
    </label>
  );
}
