import { SortControl } from '../../components/sort-control.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import { toggleValue } from '../../lib/toggle-value.ts';
import type { DepartureWindow, FlightResultView, FlightSort } from './flight-search-params.ts';
import { DEPARTURE_WINDOWS, SORTS } from './flight-search-params.ts';

const SORT_LABELS: Record<FlightSort, MessageId> = {
  best: 'flights.sort.best',
  cheapest: 'flights.sort.cheapest',
  fastest: 'flights.sort.fastest',
};
const WINDOW_LABELS: Record<DepartureWindow, MessageId> = {
  night: 'flights.window.night',
  morning: 'flights.window.morning',
  afternoon: 'flights.window.afternoon',
  evening: 'flights.window.evening',
};
const STOP_OPTIONS: Array<{ label: MessageId; value: number | undefined }> = [
  { label: 'flights.stops.any', value: undefined },
  { label: 'flights.stops.nonstop', value: 0 },
  { label: 'flights.stops.oneAtMost', value: 1 },
];

export interface ResultFiltersProps {
  view: FlightResultView;
  onChange: (view: FlightResultView) => void;
  carriers: Array<{ code: string; name: string }>;
}

export function FlightSortControl({ view, onChange }: Omit<ResultFiltersProps, 'carriers'>) {
  const t = useT();
  return (
    <SortControl
      legend={t('flights.sort')}
      name="flight-sort"
      sorts={SORTS}
      labels={SORT_LABELS}
      value={view.sort}
      onChange={(sort) => onChange({ ...view, sort })}
    />
  );
}

export function ResultFilters({ view, onChange, carriers }: ResultFiltersProps) {
  const t = useT();
  return (
    <aside className="filters card" aria-label={t('flights.filters')}>
      <h2 className="filters-title">{t('flights.filters')}</h2>
      <fieldset>
        <legend>{t('flights.stops')}</legend>
        {STOP_OPTIONS.map((option) => (
          <label key={option.label} className="checkbox">
            <input
              type="radio"
              name="flight-stops"
              checked={view.maxStops === option.value}
              onChange={() => onChange({ ...view, maxStops: option.value })}
            />
            {t(option.label)}
          </label>
        ))}
      </fieldset>
      {carriers.length > 0 && (
        <fieldset>
          <legend>{t('flights.airlines')}</legend>
          {carriers.map((carrier) => (
            <label key={carrier.code} className="checkbox">
              <input
                type="checkbox"
                checked={view.airlines.includes(carrier.code)}
                onChange={() => onChange({ ...view, airlines: toggleValue(view.airlines, carrier.code) })}
              />
              {carrier.name}
            </label>
          ))}
        </fieldset>
      )}
      <fieldset>
        <legend>{t('flights.departure')}</legend>
        {DEPARTURE_WINDOWS.map((window) => (
          <label key={window} className="checkbox">
            <input
              type="checkbox"
              checked={view.departures.includes(window)}
              onChange={() => onChange({ ...view, departures: toggleValue(view.departures, window) })}
            />
            {t(WINDOW_LABELS[window])}
          </label>
        ))}
      </fieldset>
      {(view.maxStops !== undefined || view.airlines.length > 0 || view.departures.length > 0) && (
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => onChange({ ...view, maxStops: undefined, airlines: [], departures: [] })}
        >
          {t('flights.clearFilters')}
        </button>
      )}
    </aside>
  );
}
