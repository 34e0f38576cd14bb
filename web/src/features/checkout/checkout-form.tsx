import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { PaymentMethod, PriceCheck } from '#shared/api/booking-operations.ts';
import type { Profile } from '#shared/api/profile.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { FormField } from '../../components/form-field.tsx';
import { RichMessage } from '../../i18n/rich-message.tsx';
import type { Translate } from '../../i18n/use-t.ts';
import { BffError } from '../../lib/bff-error.ts';
import { fieldId, fieldProblemsByPath } from '../../lib/error-grammar.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { OutcomeNotice } from '../../components/outcome-notice.tsx';
import { declinedCard } from '../../lib/declined-card.ts';
import { conflictReason, ExpiredNotice } from './checkout-problem.tsx';
import { checkoutQueries, useCreateBooking } from './checkout-queries.ts';
import { attemptKey, forgetSelection, type CheckoutSelection } from './checkout-selection.ts';

/** The booking outcomes checkout tells in its own words; any other failure shows through ErrorNotice. */
const KNOWN_OUTCOMES = new Set(['PAYMENT_DECLINED', 'BOOKING_CONFLICT', 'OFFER_EXPIRED', 'PRICE_CHANGED']);

/** The traveler, the card on file and the one booking attempt of a checkout whose price is known. */
export interface CheckoutFormProps {
  offerId: string;
  selection: CheckoutSelection;
  check: PriceCheck;
  profile: Profile;
  format: Formatters;
  t: Translate;
  onRecheck: () => void;
  onChooseAgain: () => void;
}

export function CheckoutForm({
  offerId,
  selection,
  check,
  profile,
  format,
  t,
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
  const [declined, setDeclined] = useState<PaymentMethod[]>([]);
  const methods = useQuery(checkoutQueries.paymentMethods(bookingProfile));
  const create = useCreateBooking();
  const usable = (methods.data?.items ?? []).filter(
    (method) => !declined.some((card) => card.paymentMethodId === method.paymentMethodId),
  );
  const chosen = usable.find((method) => method.paymentMethodId === paymentMethodId) ?? usable[0];

  const error = create.error instanceof BffError ? create.error : null;
  // A field the server refused (a control character pasted into a name...), at the field and in the summary.
  const fieldErrors = create.isError ? fieldProblemsByPath(create.error, t) : {};
  const labels = {
    'traveler.name': t('checkout.fullName'),
    'traveler.email': t('checkout.email'),
    'traveler.phone': t('checkout.phone'),
  };

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
          if (failure instanceof BffError && failure.code === 'PAYMENT_DECLINED') {
            const card = declinedCard(failure, methods.data?.items ?? [], chosen);
            setDeclined((list) => [...list, card]);
            setPaymentMethodId('');
          }
        },
      },
    );
  };

  const money = (value: { amount: number; currency: string }) => format.money(value.amount, value.currency);
  const lastDeclined = declined.at(-1);
  const travelLabel = (personal: boolean) => t(personal ? 'checkout.personal' : 'checkout.business');

  return (
    <form className="stack" onSubmit={submit} noValidate aria-labelledby="checkout-pay">
      <section className="card stack-sm" aria-labelledby="checkout-price">
        <h2 id="checkout-price">{t('checkout.price')}</h2>
        {changed ? (
          <div className="notice notice-warning" role="alert">
            <h3>{t('checkout.priceChanged.title')}</h3>
            <p>
              <RichMessage
                id="checkout.priceChanged.text"
                values={{ was: money(check.previousPrice), now: money(check.price) }}
                components={{ 0: <del />, 1: <strong /> }}
              />
            </p>
            <label className="row">
              <input
                type="checkbox"
                checked={acceptedChange}
                onChange={(event) => setAcceptedChange(event.target.checked)}
              />
              {t('checkout.priceChanged.accept')}
            </label>
          </div>
        ) : (
          <p>
            <strong className="price">{money(check.price)}</strong>{' '}
            <span className="muted small">{t('checkout.priceChecked')}</span>
          </p>
        )}
      </section>

      <fieldset className="card stack-sm">
        <legend>{t('checkout.traveler')}</legend>
        <p className="small muted">{t('checkout.travelerHint')}</p>
        <FormField
          id={fieldId('traveler.name')}
          label={labels['traveler.name']}
          error={fieldErrors['traveler.name']}
        >
          {(field) => (
            <input
              {...field}
              className="input"
              required
              value={name}
              onChange={(event) => setName(event.target.value)}
              autoComplete="name"
            />
          )}
        </FormField>
        <FormField
          id={fieldId('traveler.email')}
          label={labels['traveler.email']}
          error={fieldErrors['traveler.email']}
        >
          {(field) => (
            <input
              {...field}
              className="input"
              required
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              autoComplete="email"
            />
          )}
        </FormField>
        <FormField
          id={fieldId('traveler.phone')}
          label={labels['traveler.phone']}
          error={fieldErrors['traveler.phone']}
        >
          {(field) => (
            <input
              {...field}
              className="input"
              type="tel"
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              autoComplete="tel"
            />
          )}
        </FormField>
      </fieldset>

      <fieldset className="card stack-sm">
        <legend>{t('checkout.payment')}</legend>
        {selection.kind === 'flight' ? (
          <div className="row" role="radiogroup" aria-label={t('checkout.kindOfTravel')}>
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
                {travelLabel(personal)}
              </label>
            ))}
          </div>
        ) : (
          <p className="small">{travelLabel(bookingProfile)}</p>
        )}
        {error?.code === 'PAYMENT_DECLINED' && (
          <OutcomeNotice
            title={t('checkout.declined.title')}
            reason={
              lastDeclined
                ? t('checkout.declined.card', { label: lastDeclined.label, last4: lastDeclined.last4 })
                : t('checkout.declined.other')
            }
          />
        )}
        {methods.isPending ? (
          <p aria-busy="true">{t('checkout.loadingPaymentMethods')}</p>
        ) : methods.isError ? (
          <ErrorNotice error={methods.error} onRetry={() => void methods.refetch()} />
        ) : usable.length === 0 ? (
          <p className="notice notice-warning">{t('checkout.noOtherPaymentMethod')}</p>
        ) : (
          <div className="stack-sm" role="radiogroup" aria-label={t('checkout.paymentMethods')}>
            {usable.map((method) => (
              <PaymentChoice
                key={method.paymentMethodId}
                method={method}
                checked={chosen?.paymentMethodId === method.paymentMethodId}
                onChoose={() => setPaymentMethodId(method.paymentMethodId)}
                t={t}
              />
            ))}
          </div>
        )}
      </fieldset>

      {error?.code === 'BOOKING_CONFLICT' && (
        <OutcomeNotice
          title={t('checkout.conflict.title')}
          reason={conflictReason(error, format, t)}
          action={{ label: t('checkout.chooseSomethingElse'), onClick: onChooseAgain }}
        />
      )}
      {error?.code === 'OFFER_EXPIRED' && <ExpiredNotice onChooseAgain={onChooseAgain} t={t} />}
      {error?.code === 'PRICE_CHANGED' && (
        <OutcomeNotice
          title={t('checkout.priceChangedWhileBooking.title')}
          reason={t('checkout.priceChangedWhileBooking.reason')}
          action={{ label: t('checkout.checkPriceAgain'), onClick: onRecheck }}
        />
      )}
      {create.isError && !KNOWN_OUTCOMES.has(error?.code ?? '') && (
        <ErrorNotice error={create.error} title={t('checkout.notConfirmed')} fieldLabels={labels} takeFocus />
      )}

      <div className="row">
        <button
          id="checkout-pay"
          type="submit"
          className="button"
          disabled={
            create.isPending ||
            // A conflict stands whatever the card or the traveler: the way on is to choose something else.
            error?.code === 'BOOKING_CONFLICT' ||
            !chosen ||
            !acceptedChange ||
            name.trim() === '' ||
            email.trim() === ''
          }
        >
          {create.isPending ? t('checkout.booking') : t('checkout.bookAndPay', { price: money(check.price) })}
        </button>
      </div>
      <p role="status" className="visually-hidden">
        {create.isPending ? t('checkout.bookingWait') : ''}
      </p>
    </form>
  );
}

function PaymentChoice({
  method,
  checked,
  onChoose,
  t,
}: {
  method: PaymentMethod;
  checked: boolean;
  onChoose: () => void;
  t: Translate;
}) {
  const expiry = `${String(method.expiryMonth).padStart(2, '0')}/${method.expiryYear}`;
  return (
    <label className="payment-choice row">
      <input type="radio" name="payment-method" checked={checked} onChange={onChoose} />
      <span>
        {t('checkout.card', { label: method.label, last4: method.last4 })}
        <span className="small muted">{t('checkout.cardExpires', { expiry })}</span>
      </span>
    </label>
  );
}
