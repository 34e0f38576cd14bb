import { memo, useMemo } from 'react';
import { Link } from 'react-router';
import type { StaySearchProperty } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import type { BffError } from '../../../lib/bff-error.ts';
import { presentError } from '../../../lib/error-grammar.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { HotelCurrencyPrice } from '../hotel/hotel-currency-price.tsx';
import { PropertyFacts } from '../hotel/property-facts.tsx';
import { propertyPagePath } from '../hotel/property-link.ts';
import { PropertyThumbnail } from '../hotel/property-thumbnail.tsx';
import type { StaySearch } from '../search/stay-search-params.ts';
import type { PropertyPrice } from './stay-search-run.ts';

export interface PropertyCardProps {
  property: StaySearchProperty;
  price: PropertyPrice;
  /** The search the hotel was found by: its page's link carries it. */
  search: StaySearch;
  format: Formatters;
  /** Prices a hotel again after its pricing failed, by its searchSolutionId. */
  onRetry: (searchSolutionId: string) => void;
}

/**
 * One hotel of a streamed search; its rate area keeps its size from placeholder to price. Memoised: a
 * search publishes a snapshot for every hotel found and every rate streamed, and only the cards whose
 * hotel or price changed draw again (the props of the others are the same objects).
 */
export const PropertyCard = memo(function PropertyCard({
  property,
  price,
  search,
  format,
  onRetry,
}: PropertyCardProps) {
  const t = useT();
  const href = useMemo(() => propertyPagePath(property, search), [property, search]);
  const titleId = `property-${property.searchSolutionId}`;
  return (
    <article className="card property-card" aria-labelledby={titleId}>
      <PropertyThumbnail
        seed={property.propertyId}
        monogram={property.thumbnail.monogram}
        image={property.image}
        alt={t('stays.photo', { hotel: property.name })}
      />
      <div className="property-main">
        <h3 id={titleId} className="property-name">
          <Link to={href}>{property.name}</Link>
        </h3>
        <PropertyFacts property={property} format={format} amenityLimit={4} />
      </div>
      <div className="property-rate">
        {price.state === 'failed' ? (
          <PriceRetry
            error={price.error}
            hotel={property.name}
            onRetry={() => onRetry(property.searchSolutionId)}
          />
        ) : (
          <RateArea price={price} format={format} />
        )}
      </div>
    </article>
  );
});

/** The rate area's shape while a price is on its way, the size of the price that replaces it. */
export function RateSkeleton() {
  return (
    <>
      <span className="skeleton skeleton-line rate-skeleton-short" />
      <span className="skeleton rate-skeleton-price" />
      <span className="skeleton skeleton-line rate-skeleton-long" />
    </>
  );
}

function RateArea({ price, format }: { price: PropertyPrice; format: Formatters }) {
  const t = useT();
  switch (price.state) {
    case 'waiting':
    case 'pricing':
      if (price.state === 'pricing' && price.cheapest) {
        return (
          <>
            <span className="small muted">{t('stays.card.from')}</span>
            <span className="price">
              {format.money(price.cheapest.nightlyPrice, price.cheapest.currency)}
            </span>
            <span className="small muted">{t('stays.card.perNightCheckingMore')}</span>
            <HotelCurrencyPrice fare={price.cheapest} format={format} />
          </>
        );
      }
      return (
        <>
          <span className="visually-hidden">{t('stays.card.checkingPrices')}</span>
          <RateSkeleton />
        </>
      );
    case 'priced':
      return (
        <>
          <span className="small muted">{t('stays.card.from')}</span>
          <span className="price">{format.money(price.cheapest.nightlyPrice, price.cheapest.currency)}</span>
          <span className="small muted">
            {t('stays.card.perNightTotal', {
              total: format.money(price.cheapest.totalPrice, price.cheapest.currency),
            })}
          </span>
          <HotelCurrencyPrice fare={price.cheapest} format={format} />
          {price.cheapest.cancellation.refundable && (
            <span className="chip chip-success">{t('stays.freeCancellation')}</span>
          )}
        </>
      );
    case 'no-rooms':
      return <span className="muted">{t('stays.card.noRooms')}</span>;
    case 'stopped':
      return <span className="muted small">{t('stays.card.notPriced')}</span>;
    case 'failed':
      return null;
  }
}

/**
 * A hotel whose pricing failed: why, and a way to price it again. After a RETRY_LATER failure it tries
 * again by itself once the wait is over; the button is there at once for any other failure.
 */
function PriceRetry({
  error,
  hotel,
  onRetry,
}: {
  error: BffError | null;
  hotel: string;
  onRetry: () => void;
}) {
  const t = useT();
  const presentation = error ? presentError(error) : null;
  const wait =
    presentation?.action === 'RETRY_LATER' ? Math.max(1, presentation.retryAfterSeconds ?? 5) : null;
  const left = useCountdown(wait, onRetry);
  const waiting = left !== null && left > 0;
  return (
    <>
      <span className="muted small">
        {t('stays.card.unavailable', {
          reason: presentation ? presentation.title.toLowerCase() : t('stays.card.connectionDropped'),
        })}
      </span>
      {waiting && <span className="muted small">{t('stays.card.tryingAgainIn', { seconds: left })}</span>}
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={waiting}
        onClick={onRetry}
      >
        {t('stays.card.tryAgain')}
        <span className="visually-hidden">{t('stays.card.tryAgainHotel', { hotel })}</span>
      </button>
    </>
  );
}
