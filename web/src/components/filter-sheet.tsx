import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './filter-sheet.css';

export interface FilterSheetButtonProps {
  /** "Filters": the button's words while no filter is on. */
  title: string;
  /** The button's words while filters are on: "Filters (2)". */
  titleActive: string;
  /** How many filters are on. */
  active: number;
  onOpen: () => void;
  /** Nothing to filter yet: the button holds its place in the layout, and cannot be pressed. */
  disabled?: boolean;
}

/** The phone's button that opens the filters' sheet; a wide screen, with its column, hides it. */
export function FilterSheetButton({ title, titleActive, active, onOpen, disabled }: FilterSheetButtonProps) {
  return (
    <button
      type="button"
      className="button button-secondary filter-sheet-open"
      aria-haspopup="dialog"
      disabled={disabled}
      onClick={onOpen}
    >
      {active > 0 ? titleActive : title}
    </button>
  );
}

export interface FilterSheetProps extends Omit<FilterSheetButtonProps, 'onOpen'> {
  /** The button that closes the sheet onto the results: "Show stays". */
  showLabel: string;
  /** The filters' fields, shown in the column or in the sheet. */
  children: ReactNode;
  /**
   * Where the page puts the opening button itself (beside its sort control, say), it holds whether the
   * sheet is open and renders a FilterSheetButton; otherwise the button comes right after the column.
   */
  sheet?: { open: boolean; onOpenChange: (open: boolean) => void };
}

/**
 * The filters of a list: a column beside it on a wide screen; on a phone, a button that opens them in
 * a sheet over the list, so the first result stays near the top of the page.
 */
export function FilterSheet({ title, titleActive, active, showLabel, children, sheet }: FilterSheetProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [ownOpen, setOwnOpen] = useState(false);
  const open = sheet ? sheet.open : ownOpen;
  const setOpen = sheet ? sheet.onOpenChange : setOwnOpen;
  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);
  return (
    <>
      <aside className="filters card filter-sheet-column" aria-label={title}>
        <h2 className="filters-title">{title}</h2>
        {children}
      </aside>
      {!sheet && (
        <FilterSheetButton
          title={title}
          titleActive={titleActive}
          active={active}
          onOpen={() => setOpen(true)}
        />
      )}
      <dialog ref={dialog} className="filter-sheet" aria-labelledby={titleId} onClose={() => setOpen(false)}>
        {open && (
          <div className="filters">
            <h2 id={titleId} className="filters-title">
              {title}
            </h2>
            {children}
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              {showLabel}
            </button>
          </div>
        )}
      </dialog>
    </>
  );
}
