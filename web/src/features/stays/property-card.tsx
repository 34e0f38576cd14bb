import { Link } from 'react-router';
import type { StaySearchProperty } from '#shared/api/stays.ts';
import type { ApiError } from '../../lib/api-error.ts';
import { presentError } from '../../lib/error-grammar.ts';
import { useCountdown } from '../../lib/use-countdown.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { PropertyThumbnail } from './property-thumbnail.tsx';
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
            {property.address} · {format.count(Math.round(property.distanceKm * 10) / 10)} km from centre
          </span>
        </p>
        <p className="small">
          <strong>{property.reviewScore.toFixed(1)}</strong>
          <span className="muted"> / 10 · {format.count(property.reviewCount)} reviews</span>
        </p>
        {property.amenities.length > 0 && (
          <ul className="amenities" aria-label="Amenities">
            {property.amenities.slice(0, 4).map((amenity) => (
              <li key={amenity} className="chip">
                {amenity.replaceAll('_', ' ')}
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
  switch (price.state) {
    case 'waiting':
    case 'pricing':
      if (price.state === 'pricing' && price.cheapest) {
        return (
          <>
            <span className="small muted">from</span>
            <span className="price">
              {format.money(price.cheapest.nightlyPrice, price.cheapest.currency)}
            </span>
            <span className="small muted">per night · checking more rooms…</span>
          </>
        );
      }
      return (
        <>
          <span className="visually-hidden">Checking prices</span>
          <span className="skeleton skeleton-line rate-skeleton-short" />
          <span className="skeleton rate-skeleton-price" />
          <span className="skeleton skeleton-line rate-skeleton-long" />
        </>
      );
    case 'priced':
      return (
        <>
          <span className="small muted">from</span>
          <span className="price">{format.money(price.cheapest.nightlyPrice, price.cheapest.currency)}</span>
          <span className="small muted">
            per night · {format.money(price.cheapest.totalPrice, price.cheapest.currency)} total
          </span>
          {price.cheapest.cancellation.refundable && (
            <span className="chip chip-success">Free cancellation</span>
          )}
        </>
      );
    case 'no-rooms':
      return <span className="muted">No rooms for these dates</span>;
    case 'stopped':
      return <span className="muted small">Not priced</span>;
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
  error: ApiError | null;
  hotel: string;
  onRetry: () => void;
}) {
  const presentation = error ? presentError(error) : null;
  const wait =
    presentation?.action === 'RETRY_LATER' ? Math.max(1, presentation.retryAfterSeconds ?? 5) : null;
  const left = useCountdown(wait, onRetry);
  const waiting = left !== null && left > 0;
  return (
    <>
      <span className="muted small">
        Prices unavailable: {presentation ? presentation.title.toLowerCase() : 'the connection dropped'}
      </span>
      {waiting && <span className="muted small">Trying again in {left} s</span>}
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={waiting}
        onClick={onRetry}
      >
        Try again<span className="visually-hidden">: {hotel}</span>
      </button>
    </>
  );
}
