import { FilterSheet, FilterSheetButton } from '../../components/filter-sheet.tsx';
import { SortControl } from '../../components/sort-control.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { toggleValue } from '../../lib/toggle-value.ts';
import type { DepartureWindow, FlightResultView, FlightSort } from './flight-search-params.ts';
import { DEPARTURE_WINDOW_START_HOURS, DEPARTURE_WINDOWS, SORTS } from './flight-search-params.ts';

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
  /** The traveler's formatters: the windows' times are on the interface's own clock (12 h in en-US). */
  format: Formatters;
}

/** "6:00 AM–11:59 AM" in en-US, "6:00–11:59" in en-GB: a window's first and last minute. */
function windowTimes(window: DepartureWindow, format: Formatters): { from: string; to: string } {
  const start = DEPARTURE_WINDOW_START_HOURS[window];
  const next = DEPARTURE_WINDOWS[DEPARTURE_WINDOWS.indexOf(window) + 1];
  const end = (next === undefined ? 24 : DEPARTURE_WINDOW_START_HOURS[next]) * 60 - 1;
  const clock = (minutes: number) =>
    format.time(new Date(Date.UTC(2000, 0, 1, 0, minutes)).toISOString(), 'UTC');
  return { from: clock(start * 60), to: clock(end) };
}

export function FlightSortControl({ view, onChange }: Pick<ResultFiltersProps, 'view' | 'onChange'>) {
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

const clearFilters = (view: FlightResultView): FlightResultView => ({
  ...view,
  maxStops: undefined,
  airlines: [],
  departures: [],
});

const filtersActive = (view: FlightResultView): number =>
  (view.maxStops === undefined ? 0 : 1) + view.airlines.length + view.departures.length;

/** On a phone, the button that opens the filters' sheet: it sits in the results' heading row. */
export function ResultFiltersButton({ view, onOpen }: { view: FlightResultView; onOpen: () => void }) {
  const t = useT();
  const active = filtersActive(view);
  return (
    <FilterSheetButton
      title={t('flights.filters')}
      titleActive={t('flights.filters.titleActive', { count: active })}
      active={active}
      onOpen={onOpen}
    />
  );
}

/** The filters of the flight results: a column beside the offers, or a sheet on a phone. */
export function ResultFilters({
  sheet,
  ...props
}: ResultFiltersProps & { sheet: { open: boolean; onOpenChange: (open: boolean) => void } }) {
  const t = useT();
  const active = filtersActive(props.view);
  return (
    <FilterSheet
      title={t('flights.filters')}
      titleActive={t('flights.filters.titleActive', { count: active })}
      active={active}
      showLabel={t('flights.filters.show')}
      sheet={sheet}
    >
      <FilterFields {...props} />
    </FilterSheet>
  );
}

function FilterFields({ view, onChange, carriers, format }: ResultFiltersProps) {
  const t = useT();
  return (
    <>
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
            {t(WINDOW_LABELS[window], windowTimes(window, format))}
          </label>
        ))}
      </fieldset>
      {filtersActive(view) > 0 && (
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => onChange(clearFilters(view))}
        >
          {t('flights.clearFilters')}
        </button>
      )}
    </>
  );
}
