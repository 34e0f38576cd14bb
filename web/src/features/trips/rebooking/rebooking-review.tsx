import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { BookingDetails, PaymentMethod } from '#shared/api/booking-operations.ts';
import type { FlightOffer } from '#shared/api/flights.ts';
import type { RebookingRequest } from '#shared/api/rebooking.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { OutcomeNotice } from '../../../components/outcome-notice.tsx';
import { useT, type Translate } from '../../../i18n/use-t.ts';
import { BffError } from '../../../lib/bff-error.ts';
import { declinedCard } from '../../../lib/declined-card.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { paymentMethodsQuery } from '../../../lib/payment-methods-query.ts';
import { priceCheckQuery } from '../../../lib/price-check-query.ts';
import { offerName } from './other-flights.ts';
import { REVIEW_TELLS, useRebook } from './rebooking-queries.ts';

/** An amount in a currency, as a price check and a rebooking name it. */
type Money = RebookingRequest['price'];

/** What changes, and the one confirmation: the new flight, what the old booking refunds, the difference. */
export function RebookingReview({
  tripId,
  offer,
  replaced,
  format,
  onBack,
}: {
  tripId: string;
  offer: FlightOffer;
  replaced: BookingDetails | undefined;
  format: Formatters;
  onBack: () => void;
}) {
  const t = useT();
  const check = useQuery(priceCheckQuery(offer.offerId, 0));
  const methods = useQuery({
    ...paymentMethodsQuery(replaced?.bookingProfile ?? false),
    enabled: replaced !== undefined,
  });
  const rebook = useRebook(tripId);
  const attempt = useRef<{ content: string; key: string } | undefined>(undefined);
  const [cardId, setCardId] = useState(replaced?.paymentMethod?.paymentMethodId);
  const [declined, setDeclined] = useState<PaymentMethod[]>([]);
  /** The price the traveler confirmed before it changed under them, once it has. */
  const [priceWas, setPriceWas] = useState<Money>();
  const name = offerName(offer);
  const leg = offer.legs[0]!;
  const price = check.data?.price ?? offer.totalPrice;
  const was = priceWas ?? (check.data?.status === 'changed' ? check.data.previousPrice : undefined);
  const terms = replaced?.cancellationTerms;
  const refund = terms?.refund;
  const net = refund && refund.currency === price.currency ? price.amount - refund.amount : undefined;
  const usable = (methods.data?.items ?? []).filter(
    (method) => !declined.some((card) => card.paymentMethodId === method.paymentMethodId),
  );
  const card = usable.find((method) => method.paymentMethodId === cardId) ?? usable[0];
  const failure = rebook.error instanceof BffError ? rebook.error : undefined;
  const money = (value: Money) => format.money(value.amount, value.currency);

  const confirm = () => {
    if (!replaced || !card) return;
    const request = {
      bookingId: replaced.bookingId,
      offerId: offer.offerId,
      price: { amount: price.amount, currency: price.currency },
      paymentMethodId: card.paymentMethodId,
    };
    const content = JSON.stringify(request);
    if (attempt.current?.content !== content) attempt.current = { content, key: crypto.randomUUID() };
    rebook.mutate(
      { key: attempt.current.key, request, flightName: name },
      {
        onError: (error) => {
          if (!(error instanceof BffError)) return;
          if (error.code === 'PRICE_CHANGED') {
            setPriceWas(request.price);
            void check.refetch();
          }
          if (error.code === 'PAYMENT_DECLINED') {
            setDeclined((list) => [...list, declinedCard(error, methods.data?.items ?? [], card)]);
            setCardId(undefined);
          }
        },
      },
    );
  };

  return (
    <section className="rebooking-review" aria-labelledby={`review-${offer.offerId}`}>
      <h4 id={`review-${offer.offerId}`}>{t('rebooking.review.heading', { flight: name })}</h4>
      <dl className="rebooking-changes">
        <dt>{t('rebooking.review.newFlight')}</dt>
        <dd>
          {t('rebooking.flightTimes', {
            departure: format.time(leg.departureTime, leg.origin.timeZone),
            from: leg.origin.code,
            arrival: format.time(leg.arrivalTime, leg.destination.timeZone),
            to: leg.destination.code,
          })}{' '}
          <span className="small muted">
            {format.calendarDate(leg.departureTime.slice(0, 10))} · {name}
          </span>
        </dd>
        <dt>{t('rebooking.review.newPrice')}</dt>
        <dd>
          {check.isPending ? (
            <span className="small muted">{t('rebooking.review.checkingPrice')}</span>
          ) : (
            <strong>{money(price)}</strong>
          )}
          {was && was.amount !== price.amount && (
            <span className="small"> {t('rebooking.review.priceChanged', { was: money(was) })}</span>
          )}
        </dd>
        {replaced && (
          <>
            <dt>{t('rebooking.review.oldBooking', { reference: replaced.reference })}</dt>
            <dd>
              {terms
                ? terms.refund.amount > 0
                  ? t('rebooking.review.refund', { amount: money(terms.refund) })
                  : t('rebooking.review.fee', { amount: money(terms.fee) })
                : t('rebooking.review.notReplaceable')}
            </dd>
          </>
        )}
        {net !== undefined && (
          <>
            <dt>{t('rebooking.review.difference')}</dt>
            <dd>
              <strong>
                {net === 0
                  ? t('rebooking.review.even')
                  : t(net > 0 ? 'rebooking.review.youPay' : 'rebooking.review.youGetBack', {
                      amount: format.money(Math.abs(net), price.currency),
                    })}
              </strong>
            </dd>
          </>
        )}
        {replaced && (
          <>
            <dt>{t('rebooking.review.payWith')}</dt>
            <dd>
              <PaymentCard
                methods={methods}
                usable={usable}
                card={card}
                choosing={declined.length > 0}
                onChoose={setCardId}
                t={t}
              />
            </dd>
          </>
        )}
      </dl>
      {!replaced && <p className="small">{t('rebooking.review.notReplaceable')}</p>}
      <p className="small muted">{t('rebooking.review.cancelAfter')}</p>
      {failure?.code === 'PAYMENT_DECLINED' && replaced && (
        <OutcomeNotice
          title={t('rebooking.review.declined.title')}
          reason={t('rebooking.review.declined.reason', {
            card: cardName(declined.at(-1), t),
            reference: replaced.reference,
          })}
        />
      )}
      {failure?.code === 'PRICE_CHANGED' && replaced && priceWas && !check.isFetching && (
        <OutcomeNotice
          title={t('rebooking.review.priceMoved.title')}
          reason={t('rebooking.review.priceMoved.reason', {
            now: money(price),
            was: money(priceWas),
            reference: replaced.reference,
          })}
        />
      )}
      {rebook.isError && !REVIEW_TELLS.has(failure?.code ?? '') && (
        <ErrorNotice error={rebook.error} takeFocus />
      )}
      <div className="row">
        <button
          type="button"
          className="button"
          disabled={
            !terms || !card || check.isPending || check.isFetching || check.isError || rebook.isPending
          }
          onClick={confirm}
        >
          {t(rebook.isPending ? 'rebooking.review.confirming' : 'rebooking.review.confirm')}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('rebooking.review.back')}
        </button>
      </div>
      {check.isError && <ErrorNotice error={check.error} />}
    </section>
  );
}

function cardName(card: PaymentMethod | undefined, t: Translate): string {
  return card ? t('rebooking.review.card', { label: card.label, last4: card.last4 }) : '';
}

/**
 * The card the new flight is paid with: the one the replaced booking was paid with, else the first on
 * file for its kind of travel; after a decline, the others to choose from.
 */
function PaymentCard({
  methods,
  usable,
  card,
  choosing,
  onChoose,
  t,
}: {
  methods: UseQueryResult<{ items: PaymentMethod[] }>;
  usable: readonly PaymentMethod[];
  card: PaymentMethod | undefined;
  choosing: boolean;
  onChoose: (paymentMethodId: string) => void;
  t: Translate;
}) {
  if (methods.isPending) return <span className="small muted">{t('rebooking.review.loadingCards')}</span>;
  if (methods.isError) return <ErrorNotice error={methods.error} onRetry={() => void methods.refetch()} />;
  if (!card) return <span>{t('rebooking.review.noCard')}</span>;
  if (!choosing) return <span>{cardName(card, t)}</span>;
  return (
    <div className="stack-sm" role="radiogroup" aria-label={t('rebooking.review.cards')}>
      {usable.map((method) => (
        <label key={method.paymentMethodId} className="row">
          <input
            type="radio"
            name="rebooking-card"
            checked={method.paymentMethodId === card.paymentMethodId}
            onChange={() => onChoose(method.paymentMethodId)}
          />
          {cardName(method, t)}
        </label>
      ))}
    </div>
  );
}
