import { memo, useId } from 'react';
import { FilterSheet, FilterSheetButton } from '../../../components/filter-sheet.tsx';
import { SortControl } from '../../../components/sort-control.tsx';
import type { MessageId } from '../../../i18n/i18n.ts';
import { useT } from '../../../i18n/use-t.ts';
import { toggleValue } from '../../../lib/toggle-value.ts';
import { boardLabel } from '../../../lib/board-label.ts';
import {
  DEFAULT_STAY_VIEW,
  filtersActive,
  STAY_SORTS,
  type StayResultView,
  type StaySort,
} from './arrange-stays.ts';

const SORT_LABELS: Record<StaySort, MessageId> = {
  distance: 'stays.sort.distance',
  price: 'stays.sort.price',
  rating: 'stays.sort.rating',
};

export interface StayFiltersProps {
  view: StayResultView;
  onChange: (view: StayResultView) => void;
  /** Board types among the rates found, and the star ratings among the hotels. */
  boards: string[];
  stars: number[];
  currency: string | undefined;
  /** No hotel found yet: the filters hold their place and wait for the first one. */
  disabled?: boolean;
}

export function StaySortControl({
  view,
  onChange,
  disabled,
}: Pick<StayFiltersProps, 'view' | 'onChange' | 'disabled'>) {
  const t = useT();
  return (
    <SortControl
      disabled={disabled}
      legend={t('stays.sort.legend')}
      name="stay-sort"
      sorts={STAY_SORTS}
      labels={SORT_LABELS}
      value={view.sort}
      onChange={(sort) => onChange({ ...view, sort })}
    />
  );
}

const clearFilters = (view: StayResultView): StayResultView => ({ ...DEFAULT_STAY_VIEW, sort: view.sort });

function FilterFields({ view, onChange, boards, stars, currency, disabled }: StayFiltersProps) {
  const t = useT();
  const priceId = useId();
  return (
    <>
      <div className="stack-sm">
        <label htmlFor={priceId}>
          {currency ? t('stays.filters.maxNightlyIn', { currency }) : t('stays.filters.maxNightly')}
        </label>
        <input
          id={priceId}
          type="number"
          inputMode="numeric"
          min={1}
          step={10}
          disabled={disabled}
          value={view.maxNightly ?? ''}
          onChange={(event) => {
            const value = Number(event.currentTarget.value);
            onChange({ ...view, maxNightly: event.currentTarget.value && value > 0 ? value : undefined });
          }}
        />
      </div>
      {stars.length > 0 && (
        <fieldset>
          <legend>{t('stays.filters.stars')}</legend>
          {stars.map((count) => (
            <label key={count} className="checkbox">
              <input
                type="checkbox"
                checked={view.stars.includes(count)}
                onChange={() => onChange({ ...view, stars: toggleValue(view.stars, count) })}
              />
              {t('stays.filters.starCount', { count })}
            </label>
          ))}
        </fieldset>
      )}
      <fieldset>
        <legend>{t('stays.filters.cancellation')}</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            disabled={disabled}
            checked={view.freeCancellation}
            onChange={() => onChange({ ...view, freeCancellation: !view.freeCancellation })}
          />
          {t('stays.freeCancellation')}
        </label>
      </fieldset>
      {boards.length > 0 && (
        <fieldset>
          <legend>{t('stays.filters.meals')}</legend>
          {boards.map((board) => (
            <label key={board} className="checkbox">
              <input
                type="checkbox"
                checked={view.boards.includes(board)}
                onChange={() => onChange({ ...view, boards: toggleValue(view.boards, board) })}
              />
              {boardLabel(board, t)}
            </label>
          ))}
        </fieldset>
      )}
      {filtersActive(view) > 0 && (
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => onChange(clearFilters(view))}
        >
          {t('stays.filters.clear')}
        </button>
      )}
    </>
  );
}

/** On a phone, the button that opens the filters' sheet: it sits in the results' heading row. */
export function StayFiltersButton({
  view,
  onOpen,
  disabled,
}: {
  view: StayResultView;
  onOpen: () => void;
  disabled: boolean;
}) {
  const t = useT();
  const active = filtersActive(view);
  return (
    <FilterSheetButton
      disabled={disabled}
      title={t('stays.filters.title')}
      titleActive={t('stays.filters.titleActive', { count: active })}
      active={active}
      onOpen={onOpen}
    />
  );
}

/**
 * The filters of the stay results: a column beside the hotels, or a sheet on a phone. Memoised: the
 * results draw again for every rate streamed, and the filters only when what they offer changes.
 */
export const StayFilters = memo(function StayFilters({
  sheet,
  ...props
}: StayFiltersProps & { sheet: { open: boolean; onOpenChange: (open: boolean) => void } }) {
  const t = useT();
  const active = filtersActive(props.view);
  return (
    <FilterSheet
      title={t('stays.filters.title')}
      titleActive={t('stays.filters.titleActive', { count: active })}
      active={active}
      showLabel={t('stays.filters.show')}
      sheet={sheet}
    >
      <FilterFields {...props} />
    </FilterSheet>
  );
});
