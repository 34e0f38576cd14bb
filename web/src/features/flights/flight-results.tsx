import { useDeferredValue, useState, type Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FlightSearchRequest } from '#shared/api/flights.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useT } from '../../i18n/use-t.ts';
import { useSearchInProgress } from '../../lib/search-activity.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { arrangeOffers, carriersOf } from './arrange-offers.ts';
import type { FlightResultView, TripType } from './flight-search-params.ts';
import { flightQueries } from './flight-queries.ts';
import { OfferCard } from './offer-card.tsx';
import { FlightSortControl, ResultFilters, ResultFiltersButton } from './result-filters.tsx';

export interface FlightResultsProps {
  /** null while the search waits for the traveler's currency: shown as searching. */
  request: FlightSearchRequest | null;
  /** "LHR → JFK → LHR" */
  route: string;
  /** The search's kind of trip, which names each offer's legs. */
  tripType: TripType;
  view: FlightResultView;
  onViewChange: (view: FlightResultView) => void;
  onEditSearch: () => void;
  /** The results' heading, which takes focus after a search. */
  headingRef?: Ref<HTMLHeadingElement>;
}

const PLACEHOLDER_REQUEST: FlightSearchRequest = {
  itinerary: [],
  passengers: { adults: 1 },
  cabinClass: 'economy',
};

export function FlightResults({
  request,
  route,
  tripType,
  view,
  onViewChange,
  onEditSearch,
  headingRef,
}: FlightResultsProps) {
  const search = useQuery({
    ...flightQueries.search(request ?? PLACEHOLDER_REQUEST),
    enabled: request !== null,
  });
  const format = useTravelerFormatters();
  const t = useT();
  useSearchInProgress(search.isFetching);
  const [filtersOpen, setFiltersOpen] = useState(false);
  // The offers are drawn in the background once they arrive (useDeferredValue): the skeleton stays until
  // the list is ready, and drawing dozens of cards yields to the traveler's input instead of holding the
  // main thread. A search whose answer is not drawn yet still counts as pending.
  const data = useDeferredValue(search.data);
  const pending = !search.isError && data === undefined;
  const succeeded = !search.isError && data !== undefined;
  const offers = data?.offers ?? [];
  const shown = arrangeOffers(offers, view);

  return (
    <section className="results" aria-labelledby="flight-results-title">
      <div className="results-header">
        <h2 id="flight-results-title" ref={headingRef} tabIndex={-1}>
          {t('flights.results.heading', { route })}
          {succeeded && (
            <span className="muted small results-subtitle">
              {shown.length === offers.length
                ? t('flights.results.count', { count: offers.length, total: format.count(offers.length) })
                : t('flights.results.matching', {
                    count: shown.length,
                    shown: format.count(shown.length),
                    total: format.count(offers.length),
                  })}
            </span>
          )}
        </h2>
        {succeeded && offers.length > 0 && (
          <>
            <ResultFiltersButton view={view} onOpen={() => setFiltersOpen(true)} />
            <FlightSortControl view={view} onChange={onViewChange} />
          </>
        )}
      </div>
      <p className="visually-hidden" role="status">
        {pending
          ? t('flights.results.searching')
          : succeeded
            ? t('flights.results.shown', { count: shown.length, sort: view.sort })
            : ''}
      </p>
      {search.isError ? (
        <ErrorNotice
          error={search.error}
          onRetry={() => void search.refetch()}
          onChangeSelection={onEditSearch}
          changeSelectionLabel={t('flights.changeSearch')}
        />
      ) : pending ? (
        <ol className="card-list" aria-busy="true" aria-label={t('flights.offers')}>
          {[0, 1, 2, 3].map((index) => (
            <li key={index} aria-hidden="true">
              <div className="card offer-card">
                <div className="stack-sm">
                  <span className="skeleton skeleton-line rate-skeleton-long" />
                  <span className="skeleton skeleton-line" />
                  <span className="skeleton skeleton-line" />
                </div>
                <span className="skeleton rate-skeleton-price" />
              </div>
            </li>
          ))}
        </ol>
      ) : offers.length === 0 ? (
        <div className="empty-state">
          <h3>{t('flights.noFlights')}</h3>
          <p className="muted">{t('flights.noFlightsHint')}</p>
          <button type="button" className="button button-secondary" onClick={onEditSearch}>
            {t('flights.changeSearch')}
          </button>
        </div>
      ) : (
        <div className="results-layout">
          <ResultFilters
            view={view}
            onChange={onViewChange}
            carriers={carriersOf(offers)}
            format={format}
            sheet={{ open: filtersOpen, onOpenChange: setFiltersOpen }}
          />
          {shown.length === 0 ? (
            <div className="empty-state">
              <h3>{t('flights.noMatches')}</h3>
              <p className="muted">{t('flights.noMatchesHint', { total: format.count(offers.length) })}</p>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => onViewChange({ ...view, maxStops: undefined, airlines: [], departures: [] })}
              >
                {t('flights.clearFilters')}
              </button>
            </div>
          ) : (
            <ol className="card-list" aria-busy={search.isFetching} aria-label={t('flights.offers')}>
              {shown.map((offer) => (
                <li key={offer.offerId}>
                  <OfferCard
                    offer={offer}
                    tripType={tripType}
                    format={format}
                    adults={request?.passengers.adults ?? 1}
                  />
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
