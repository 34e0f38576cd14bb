import { SortControl } from '../../components/sort-control.tsx';
import { toggleValue } from '../../lib/toggle-value.ts';
import type { DepartureWindow, FlightResultView, FlightSort } from './flight-search-params.ts';
import { DEPARTURE_WINDOWS, SORTS } from './flight-search-params.ts';

const SORT_LABELS: Record<FlightSort, string> = { best: 'Best', cheapest: 'Cheapest', fastest: 'Fastest' };
const WINDOW_LABELS: Record<DepartureWindow, string> = {
  night: 'Night (00:00–05:59)',
  morning: 'Morning (06:00–11:59)',
  afternoon: 'Afternoon (12:00–17:59)',
  evening: 'Evening (18:00–23:59)',
};

export interface ResultFiltersProps {
  view: FlightResultView;
  onChange: (view: FlightResultView) => void;
  carriers: Array<{ code: string; name: string }>;
}

export function FlightSortControl({ view, onChange }: Omit<ResultFiltersProps, 'carriers'>) {
  return (
    <SortControl
      legend="Sort flights"
      name="flight-sort"
      sorts={SORTS}
      labels={SORT_LABELS}
      value={view.sort}
      onChange={(sort) => onChange({ ...view, sort })}
    />
  );
}

export function ResultFilters({ view, onChange, carriers }: ResultFiltersProps) {
  return (
    <aside className="filters card" aria-label="Filters">
      <h2 className="filters-title">Filters</h2>
      <fieldset>
        <legend>Stops</legend>
        {[
          { label: 'Any number of stops', value: undefined },
          { label: 'Nonstop only', value: 0 },
          { label: 'One stop at most', value: 1 },
        ].map((option) => (
          <label key={option.label} className="checkbox">
            <input
              type="radio"
              name="flight-stops"
              checked={view.maxStops === option.value}
              onChange={() => onChange({ ...view, maxStops: option.value })}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {carriers.length > 0 && (
        <fieldset>
          <legend>Airlines</legend>
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
        <legend>Departure time (first flight)</legend>
        {DEPARTURE_WINDOWS.map((window) => (
          <label key={window} className="checkbox">
            <input
              type="checkbox"
              checked={view.departures.includes(window)}
              onChange={() => onChange({ ...view, departures: toggleValue(view.departures, window) })}
            />
            {WINDOW_LABELS[window]}
          </label>
        ))}
      </fieldset>
      {(view.maxStops !== undefined || view.airlines.length > 0 || view.departures.length > 0) && (
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => onChange({ ...view, maxStops: undefined, airlines: [], departures: [] })}
        >
          Clear filters
        </button>
      )}
    </aside>
  );
}
