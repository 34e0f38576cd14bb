import { useT } from '../../../i18n/use-t.ts';

export interface MaxNightsNoticeProps {
  maxNights: number | undefined;
  nights: number;
  onShorten: (nights: number) => void;
}

/** MAX_NIGHTS_EXCEEDED: the maximum, and a one-step way to shorten the stay to it. */
export function MaxNightsNotice({ maxNights, nights, onShorten }: MaxNightsNoticeProps) {
  const t = useT();
  return (
    <div className="notice notice-warning" role="alert">
      <h3>{t('stays.maxNights.title')}</h3>
      <p>
        {maxNights
          ? t('stays.maxNights.limit', { max: maxNights, nights })
          : t('stays.maxNights.noLimit', { nights })}{' '}
        {t('stays.maxNights.advice')}
      </p>
      {maxNights && (
        <div className="row">
          <button type="button" className="button" onClick={() => onShorten(maxNights)}>
            {t('stays.maxNights.shorten', { max: maxNights })}
          </button>
        </div>
      )}
    </div>
  );
}
