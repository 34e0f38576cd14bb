import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useT, type Translate } from '../../i18n/use-t.ts';
import { BffError } from '../../lib/bff-error.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useShownOnPage } from '../../lib/shown-on-page.ts';
import { profileQueries } from '../../lib/profile-query.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { ExpiredNotice } from './checkout-problem.tsx';
import { checkoutQueries } from './checkout-queries.ts';
import { forgetSelection, loadSelection, type CheckoutSelection } from './checkout-selection.ts';
import { OfferDetails } from './offer-details.tsx';
import { RateDetails } from './rate-details.tsx';
import { CheckoutForm } from './checkout-form.tsx';
import './checkout.css';

/** Checkout of a chosen flight offer or room rate: price check, traveler, payment on file, book once. */
export function CheckoutPage() {
  const { offerId = '' } = useParams();
  const selection = loadSelection(offerId);
  const t = useT();
  useDocumentTitle(t('checkout.title'));
  // Checkout leads to the confirmation of the booking it makes: no toast of it on the way there.
  useShownOnPage({ kind: 'checkout' });
  if (!selection) {
    return (
      <div className="page stack">
        <h1>{t('checkout.title')}</h1>
        <div className="notice notice-warning" role="alert">
          <h2>{t('checkout.gone.title')}</h2>
          <p>{t('checkout.gone.hint')}</p>
          <p className="row">
            <Link className="button" to="/flights">
              {t('checkout.searchFlights')}
            </Link>
            <Link className="button button-secondary" to="/stays">
              {t('checkout.searchStays')}
            </Link>
          </p>
        </div>
      </div>
    );
  }
  return <Checkout offerId={offerId} selection={selection} />;
}

function Checkout({ offerId, selection }: { offerId: string; selection: CheckoutSelection }) {
  const t = useT();
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
        <Link to={selection.returnTo}>{t('checkout.backToChoices')}</Link>
      </p>
      <h1>
        {selection.kind === 'flight'
          ? t('checkout.bookFlight')
          : t('checkout.bookStay', { hotel: selection.hotelName })}
      </h1>
      <section className="card stack-sm" aria-labelledby="checkout-choice">
        <h2 id="checkout-choice">{t('checkout.yourChoice')}</h2>
        <SelectionSummary selection={selection} format={format} t={t} />
      </section>

      {price.isPending ? (
        <p role="status" aria-busy="true">
          {t('checkout.checkingPrice')}
        </p>
      ) : price.isError ? (
        price.error instanceof BffError && price.error.code === 'OFFER_EXPIRED' ? (
          <ExpiredNotice onChooseAgain={chooseAgain} t={t} />
        ) : (
          <ErrorNotice error={price.error} onRetry={() => setRun((value) => value + 1)} />
        )
      ) : profile.isPending ? (
        <p role="status" aria-busy="true">
          {t('checkout.loadingDetails')}
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
          t={t}
          onRecheck={() => setRun((value) => value + 1)}
          onChooseAgain={chooseAgain}
        />
      )}
    </div>
  );
}

function SelectionSummary({
  selection,
  format,
  t,
}: {
  selection: CheckoutSelection;
  format: Formatters;
  t: Translate;
}) {
  if (selection.kind === 'flight') {
    const { offer } = selection;
    return (
      <>
        <p>
          {offer.legs
            .map((leg) =>
              t('checkout.flightLeg', {
                from: leg.origin.city,
                to: leg.destination.city,
                date: format.calendarDate(leg.departureTime.slice(0, 10), 'long'),
              }),
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
        {t('checkout.stayDates', {
          checkIn: format.calendarDate(selection.checkIn, 'long'),
          checkOut: format.calendarDate(selection.checkOut, 'long'),
          nights: selection.fare.nights,
        })}
      </p>
      <RateDetails fare={selection.fare} checkIn={selection.checkIn} format={format} />
    </>
  );
}
