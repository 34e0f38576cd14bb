import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n/use-t.ts';
import type { Preloadable } from '../lib/preloadable.tsx';
import './collapsible-search.css';

const FIELD = 'input:not([type="hidden"]), select, textarea';

export interface CollapsibleSearchProps {
  /** A search ran and the traveler is not editing it: the form folds into its one-line summary. */
  collapsed: boolean;
  /** The search in one line: "Rome · Thu, Dec 3 – Sat, Dec 5 · 2 adults". */
  summary: ReactNode;
  /** "Edit search" */
  editLabel: string;
  /** Opens the form again (the page stops folding it until the next search). */
  onEdit: () => void;
  /** Where focus goes once the form is open again; the form's first field unless given. */
  focusOnEdit?: () => void;
  /**
   * The search form. Once drawn it stays mounted while folded, so nothing the traveler typed is lost; a
   * page opened with its search already folded (a results link) draws it only when the traveler opens it,
   * since its fields are the page's heaviest part to draw and there is nothing in them to keep yet.
   */
  children: ReactNode;
  /**
   * The form's code, when it is fetched apart from the page's (lib/preloadable.tsx): the Edit button asks
   * for it when the pointer or focus comes to it, and opens the form once it has arrived, so the form
   * draws whole and its first field takes focus.
   */
  formCode?: Pick<Preloadable<never>, 'preload' | 'whenReady' | 'ready'>;
}

/**
 * A search form that gives the screen to its results: after a search it stands as one line with an
 * Edit button, on every screen, so the first result starts near the top of the screen.
 */
export function CollapsibleSearch({
  collapsed,
  summary,
  editLabel,
  onEdit,
  focusOnEdit,
  children,
  formCode,
}: CollapsibleSearchProps) {
  const t = useT();
  const form = useRef<HTMLDivElement>(null);
  const editing = useRef(false);
  const [opening, setOpening] = useState(false);
  const [drawn, setDrawn] = useState(!collapsed);
  // Asked for when the traveler comes to Edit; a failure is the form's to say when it draws.
  const fetchFormCode = () => void formCode?.preload().catch(() => undefined);
  if (!collapsed && !drawn) setDrawn(true);
  useEffect(() => {
    if (collapsed || !editing.current) return;
    editing.current = false;
    if (focusOnEdit) focusOnEdit();
    else form.current?.querySelector<HTMLElement>(FIELD)?.focus();
  }, [collapsed, focusOnEdit]);
  return (
    <>
      {collapsed && (
        <div className="card search-summary">
          <p>{summary}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            aria-busy={opening || undefined}
            onPointerEnter={fetchFormCode}
            onFocus={fetchFormCode}
            onClick={() => {
              if (opening) return;
              const open = () => {
                setOpening(false);
                editing.current = true;
                onEdit();
              };
              if (!formCode || formCode.ready()) open();
              else {
                setOpening(true);
                formCode.whenReady(open);
              }
            }}
          >
            {editLabel}
          </button>
        </div>
      )}
      <div ref={form} className={collapsed ? 'search-collapsible collapsed' : 'search-collapsible'}>
        {drawn && (
          <Suspense
            fallback={
              <p className="card muted" role="status">
                {t('forms.searchLoading')}
              </p>
            }
          >
            {children}
          </Suspense>
        )}
      </div>
    </>
  );
}
