import type { StayCurrency } from '../stay-currency.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  arrangeStays,
  boardsOf,
  currencyOf,
  DEFAULT_STAY_VIEW,
  filtersActive,
  type StayResultView,
} from './arrange-stays.ts';
import { StayFilters, StayFiltersButton, StaySortControl } from './stay-result-filters.tsx';
import type { StaySearchSnapshot } from './stay-search-run.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useT, type Translate } from '../../../i18n/use-t.ts';
import { nightsBetween } from '../../../lib/intl-format.ts';
import { useSearchInProgress } from '../../../lib/search-activity.ts';
import { useTravelerFormatters } from '../../../lib/use-traveler-formatters.ts';
import { maxNightsOf } from '../search/max-nights-of.ts';
import { MaxNightsNotice } from '../search/max-nights-notice.tsx';
import { PropertyCard, RateSkeleton } from './property-card.tsx';
import { progressText } from './stay-progress.ts';
import type { StaySearch } from '../search/stay-search-params.ts';
import { useStaySearchRun } from './use-stay-search-run.ts';

export interface StayResultsProps {
  search: StaySearch;
  /** The traveler's currency, which the hotels are priced in when the travel API can convert. */
  currency?: StayCurrency | undefined;
  runKey: string;
  view: StayResultView;
  onViewChange: (view: StayResultView) => void;
  onSearchAgain: () => void;
  onShortenStay: (nights: number) => void;
  onFieldErrors: (error: unknown) => void;
}

function liveSummary(snapshot: StaySearchSnapshot, t: Translate): string {
  const count = snapshot.properties.length;
  switch (snapshot.phase) {
    case 'searching':
      return count === 0 ? t('stays.live.searching') : t('stays.live.foundSoFar', { count });
    case 'pricing':
      return t('stays.live.found', { count });
    case 'complete':
      return count === 0 ? t('stays.live.none') : t('stays.live.ready', { count });
    case 'max-nights':
      return t('stays.live.maxNights');
    case 'offer-expired':
      return t('stays.live.offerExpired');
    case 'failed':
      return t('stays.live.failed');
  }
}

export function StayResults({
  search,
  currency,
  runKey,
  view,
  onViewChange,
  onSearchAgain,
  onShortenStay,
  onFieldErrors,
}: StayResultsProps) {
  const { snapshot, retry } = useStaySearchRun(search, runKey, currency);
  const t = useT();
  const format = useTravelerFormatters();
  const streaming = snapshot.phase === 'searching' || snapshot.phase === 'pricing';
  useSearchInProgress(streaming);
  const reportedError = useRef<unknown>(null);
  const [filtersOpen, setFiltersOpen] = useState(false);

  // A problem in the search's own fields goes to the form, once per error, after this render.
  const fieldError =
    snapshot.phase === 'failed' && snapshot.error?.recoveryAction === 'FIX_INPUT' ? snapshot.error : null;
  useEffect(() => {
    if (!fieldError || reportedError.current === fieldError) return;
    reportedError.current = fieldError;
    onFieldErrors(fieldError);
  }, [fieldError, onFieldErrors]);

  // What the filters offer, as values that stay the same objects while their content does, so the
  // memoised filters draw only when a new board or star rating turns up.
  const boardsKey = boardsOf(snapshot.prices).join('\n');
  const boards = useMemo(() => (boardsKey === '' ? [] : boardsKey.split('\n')), [boardsKey]);
  const starsKey = [...new Set(snapshot.properties.map((property) => property.stars))]
    .sort()
    .reverse()
    .join(',');
  const stars = useMemo(() => (starsKey === '' ? [] : starsKey.split(',').map(Number)), [starsKey]);
  const sheet = useMemo(() => ({ open: filtersOpen, onOpenChange: setFiltersOpen }), [filtersOpen]);
  const expected = snapshot.expected ?? snapshot.properties.length;
  const shown = arrangeStays(snapshot.properties, snapshot.prices, view);
  const found = snapshot.properties.length;
  const nights = nightsBetween(search.checkIn, search.checkOut);

  return (
    <section className="results" aria-labelledby="stay-results-title">
      <div className="results-header">
        <h2 id="stay-results-title">
          {t('stays.results.title', { city: search.destination.name })}
          <span className="muted small results-subtitle">
            {format.calendarDate(search.checkIn)} – {format.calendarDate(search.checkOut)} ·{' '}
            {t('stays.nights', { count: nights })}
          </span>
        </h2>
        {/* The controls are in place from the first paint, so the first hotel does not push the list. */}
        <StayFiltersButton view={view} onOpen={() => setFiltersOpen(true)} disabled={found === 0} />
        <p className="progress-line" aria-hidden="true">
          {snapshot.phase === 'searching' && <span className="spinner" />}
          {progressText(snapshot, expected, t)}
        </p>
        <StaySortControl view={view} onChange={onViewChange} disabled={found === 0} />
      </div>
      <p className="visually-hidden" role="status">
        {liveSummary(snapshot, t)}
      </p>

      {snapshot.phase === 'max-nights' && (
        <MaxNightsNotice maxNights={maxNightsOf(snapshot.error)} nights={nights} onShorten={onShortenStay} />
      )}
      {snapshot.phase === 'offer-expired' && (
        <ErrorNotice
          error={snapshot.error}
          title={t('stays.expired.title')}
          guidance={t('stays.expired.guidance')}
          onChangeSelection={onSearchAgain}
          changeSelectionLabel={t('stays.searchAgain')}
        />
      )}
      {snapshot.phase === 'failed' && snapshot.error && (
        <ErrorNotice error={snapshot.error} onRetry={onSearchAgain} onChangeSelection={onSearchAgain} />
      )}
      {snapshot.truncated && (
        <div className="notice notice-warning" role="alert">
          <h3>{t('stays.truncated.title')}</h3>
          <p>{t('stays.truncated.body')}</p>
          <div className="row">
            <button type="button" className="button button-secondary" onClick={onSearchAgain}>
              {t('stays.searchAgain')}
            </button>
          </div>
        </div>
      )}
      {snapshot.phase === 'complete' && snapshot.properties.length === 0 && !snapshot.truncated && (
        <div className="empty-state">
          <h3>{t('stays.empty.title')}</h3>
          <p className="muted">{t('stays.empty.body', { city: search.destination.name })}</p>
        </div>
      )}
      {snapshot.phase === 'complete' && allFailed(snapshot) && (
        <ErrorNotice
          error={firstFailure(snapshot)}
          title={t('stays.allFailed.title')}
          onRetry={onSearchAgain}
        />
      )}

      <div className="results-layout">
        <StayFilters
          view={view}
          onChange={onViewChange}
          boards={boards}
          stars={stars}
          currency={currencyOf(snapshot.prices)}
          disabled={found === 0}
          sheet={sheet}
        />
        <div className="stack">
          {found > 0 && shown.length < found && (
            <p className="muted small">{t('stays.filtered.count', { shown: shown.length, found })}</p>
          )}
          {found > 0 && shown.length === 0 && filtersActive(view) > 0 && (
            <div className="empty-state">
              <h3>{t('stays.filtered.none')}</h3>
              <p className="muted">{t('stays.filtered.loosen', { count: found })}</p>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => onViewChange({ ...DEFAULT_STAY_VIEW, sort: view.sort })}
              >
                {t('stays.filters.clear')}
              </button>
            </div>
          )}
          <ol className="card-list" aria-busy={streaming} aria-label={t('stays.results.list')}>
            {shown.map(({ property, price }) => (
              <li key={property.searchSolutionId}>
                <PropertyCard
                  property={property}
                  price={price}
                  search={search}
                  format={format}
                  onRetry={retry}
                />
              </li>
            ))}
            {/* Each placeholder is keyed by the place it holds: a hotel arriving takes the first one's
                place, and the ones after it stay where they are instead of moving down a card. */}
            {snapshot.phase === 'searching' &&
              Array.from({ length: found === 0 ? 3 : 1 }, (_, index) => (
                <li key={`placeholder-${found + index}`} aria-hidden="true">
                  <div className="card property-card property-card-placeholder">
                    <span className="skeleton property-thumb" />
                    <div className="property-main stack-sm">
                      <span className="skeleton skeleton-line" />
                      <span className="skeleton skeleton-line rate-skeleton-long" />
                    </div>
                    <div className="property-rate">
                      <RateSkeleton />
                    </div>
                  </div>
                </li>
              ))}
          </ol>
        </div>
      </div>
    </section>
  );
}

function allFailed(snapshot: StaySearchSnapshot): boolean {
  const prices = Object.values(snapshot.prices);
  return prices.length > 0 && prices.every((price) => price.state === 'failed');
}

function firstFailure(snapshot: StaySearchSnapshot): unknown {
  for (const price of Object.values(snapshot.prices))
    if (price.state === 'failed' && price.error) return price.error;
  return null;
}
