import type { MessageId } from '../i18n/i18n.ts';
import { useT } from '../i18n/use-t.ts';

export interface SortControlProps<Sort extends string> {
  /** What is sorted, for screen readers ("Sort flights"). */
  legend: string;
  /** The radio group's name. */
  name: string;
  sorts: readonly Sort[];
  /** Each sort's name, a message of the catalogs. */
  labels: Record<Sort, MessageId>;
  value: Sort;
  onChange: (sort: Sort) => void;
  /** Nothing to sort yet: the choice holds its place in the layout, and cannot be changed. */
  disabled?: boolean;
}

/** The segmented sort choice above a list of results. */
export function SortControl<Sort extends string>({
  legend,
  name,
  sorts,
  labels,
  value,
  onChange,
  disabled,
}: SortControlProps<Sort>) {
  const t = useT();
  return (
    <fieldset className="sort-control" disabled={disabled}>
      <legend className="visually-hidden">{legend}</legend>
      <div className="segmented">
        {sorts.map((sort) => (
          <label key={sort} className="segmented-option">
            <input type="radio" name={name} checked={value === sort} onChange={() => onChange(sort)} />
            <span>{t(labels[sort])}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
