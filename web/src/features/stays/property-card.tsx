import { Link } from 'react-router';
import type { StaySearchProperty } from '#shared/api/stays.ts';
import { presentError } from '../../lib/error-grammar.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { PropertyThumbnail } from './property-thumbnail.tsx';
import { StarsRating } from './stars-rating.tsx';
import type { PropertyPrice } from './stay-search-run.ts';

export interface PropertyCardProps {
  property: StaySearchProperty;
  price: PropertyPrice;
  href: string;
  format: Formatters;
}

/** One hotel of a streamed search; its rate area keeps its size from placeholder to price. */
export function PropertyCard({ property, price, href, format }: PropertyCardProps) {
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
        <RateArea price={price} format={format} />
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
    case 'failed':
      return (
        <span className="muted small">
          Prices unavailable:{' '}
          {price.error ? presentError(price.error).title.toLowerCase() : 'the connection dropped'}
        </span>
      );
  }
}
