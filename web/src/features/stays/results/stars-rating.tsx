import { useT } from '../../../i18n/use-t.ts';

export function StarsRating({ stars }: { stars: number }) {
  const t = useT();
  return (
    <span className="stars" role="img" aria-label={t('stays.stars', { stars })}>
      {'★'.repeat(stars)}
    </span>
  );
}
