import type { StayPropertyDetails } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import { numberFormat, type Formatters } from '../../../lib/intl-format.ts';
import { amenityLabel } from '../results/amenity-label.ts';
import { StarsRating } from '../results/stars-rating.tsx';

export type PropertyFactsOf = Pick<
  StayPropertyDetails,
  'stars' | 'address' | 'reviewScore' | 'reviewCount' | 'amenities'
> & { distanceKm?: number };

/**
 * What a hotel is: its stars (read as words), address, guest score with the number of reviews, and its
 * amenities in the traveler's words (the first `amenityLimit` of them when given).
 */
export function PropertyFacts({
  property,
  format,
  amenityLimit,
}: {
  property: PropertyFactsOf;
  format: Formatters;
  amenityLimit?: number;
}) {
  const t = useT();
  const score = numberFormat(format.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const amenities =
    amenityLimit === undefined ? property.amenities : property.amenities.slice(0, amenityLimit);
  return (
    <>
      <p className="property-meta">
        <StarsRating stars={property.stars} />
        <span className="muted small">
          <span className="visually-hidden">{t('stays.property.address')}: </span>
          {property.address}
          {property.distanceKm !== undefined && (
            <>
              {' '}
              ·{' '}
              {t('stays.card.distance', {
                distance: format.count(Math.round(property.distanceKm * 10) / 10),
              })}
            </>
          )}
        </span>
      </p>
      <p className="small">
        <span className="visually-hidden">{t('stays.guestScore')}: </span>
        <strong>{score.format(property.reviewScore)}</strong>
        <span className="muted">
          {' '}
          {t('stays.card.reviews', {
            count: property.reviewCount,
            reviews: format.count(property.reviewCount),
          })}
        </span>
      </p>
      {amenities.length > 0 && (
        <ul className="amenities" aria-label={t('stays.amenities')}>
          {amenities.map((amenity) => (
            <li key={amenity} className="chip">
              {amenityLabel(amenity, t)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
