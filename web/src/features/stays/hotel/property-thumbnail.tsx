const THUMBNAIL_TONES = 6;

function toneOf(seed: string): number {
  let hash = 0;
  for (const character of seed) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return hash % THUMBNAIL_TONES;
}

/** A decorative monogram tile standing in for the hotel photo (no images on the wire). */
export function PropertyThumbnail({ seed, monogram }: { seed: string; monogram: string }) {
  return (
    <div className={`property-thumb property-thumb-${toneOf(seed)}`} aria-hidden="true">
      {monogram.slice(0, 2)}
    </div>
  );
}
