import { Link } from 'react-router';
import type { StaySearchProperty } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import type { BffError } from '../../../lib/bff-error.ts';
import { presentError } from '../../../lib/error-grammar.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { amenityLabel } from './amenity-label.ts';
import { PropertyThumbnail } from '../hotel/property-thumbnail.tsx';
import { StarsRating } from './stars-rating.tsx';
import type { PropertyPrice } from './stay-search-run.ts';

export interface PropertyCardProps {
  property: StaySearchProperty;
  price: PropertyPrice;
  href: string;
  format: Formatters;
  /** Prices this hotel again after its pricing failed. */
  onRetry: () => void;
}

/** One hotel of a streamed search; its rate area keeps its size from placeholder to price. */
export function PropertyCard({ property, price, href, format, onRetry }: PropertyCardProps) {
  const t = useT();
  const score = new Intl.NumberFormat(format.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const titleId = `property-${property.searchSolutionId}`;
  return (
    <article className="card property-card" aria-labelledby={titleId}>
      <PropertyThumbnail seed={property.propertyId} monogram={property.thumbnail.monogram} />
      <div className="property-main">
        <h3 id={titleId} className="property-name">
          <Link to={href}>{property.name}</Link>
        </h3>
        <p className="property-meta">
          <StarsRating stars={property.stars} />
          <span className="muted small">
            {property.address} ·{' '}
            {t('stays.card.distance', { distance: format.count(Math.round(property.distanceKm * 10) / 10) })}
          </span>
        </p>
        <p className="small">
          <strong>{score.format(property.reviewScore)}</strong>
          <span className="muted">
            {' '}
            {t('stays.card.reviews', {
              count: property.reviewCount,
              reviews: format.count(property.reviewCount),
            })}
          </span>
        </p>
        {property.amenities.length > 0 && (
          <ul className="amenities" aria-label={t('stays.amenities')}>
            {property.amenities.slice(0, 4).map((amenity) => (
              <li key={amenity} className="chip">
                {amenityLabel(amenity, t)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="property-rate">
        {price.state === 'failed' ? (
          <PriceRetry error={price.error} hotel={property.name} onRetry={onRetry} />
        ) : (
          <RateArea price={price} format={format} />
        )}
      </div>
    </article>
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
          </>
        );
      }
      return (
        <>
          <span className="visually-hidden">{t('stays.card.checkingPrices')}</span>
          <span className="skeleton skeleton-line rate-skeleton-short" />
          <span className="skeleton rate-skeleton-price" />
          <span className="skeleton skeleton-line rate-skeleton-long" />
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
