import type { PropertyImage } from '#shared/api/stays.ts';

const THUMBNAIL_TONES = 6;

function toneOf(seed: string): number {
  let hash = 0;
  for (const character of seed) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return hash % THUMBNAIL_TONES;
}

/** A picture the page's policy lets it show: one inside the answer itself, or from this origin. */
export function showableImage(image: PropertyImage | undefined): PropertyImage | undefined {
  if (!image) return undefined;
  return image.url.startsWith('data:image/') || (image.url.startsWith('/') && !image.url.startsWith('//'))
    ? image
    : undefined;
}

export interface PropertyThumbnailProps {
  seed: string;
  monogram: string;
  /** The hotel's picture; without one (or one from elsewhere) a decorative monogram tile stands in. */
  image?: PropertyImage | undefined;
  /** What the picture shows, in the traveler's words. */
  alt?: string;
  className?: string;
}

/** The hotel's picture, or a decorative monogram tile when there is none. */
export function PropertyThumbnail({ seed, monogram, image, alt, className = '' }: PropertyThumbnailProps) {
  const picture = showableImage(image);
  if (picture) {
    return (
      <img
        className={`property-thumb property-photo ${className}`.trim()}
        src={picture.url}
        alt={alt ?? ''}
        width={picture.width}
        height={picture.height}
        decoding="async"
      />
    );
  }
  return (
    <div className={`property-thumb property-thumb-${toneOf(seed)} ${className}`.trim()} aria-hidden="true">
      {monogram.slice(0, 2)}
    </div>
  );
}
