import { useT } from '../../../i18n/use-t.ts';
import { useTravelerFormatters } from '../../../lib/use-traveler-formatters.ts';
import { roomsSummary } from '../hotel/stay-header.tsx';
import type { StaySearch } from './stay-search-params.ts';

/**
 * The search in one line, with a way back to the form: on a phone it stands for the form once a search
 * ran, so the hotels start near the top of the screen. A wide screen keeps the form and hides this.
 */
export function StaySearchSummary({ search, onEdit }: { search: StaySearch; onEdit: () => void }) {
  const t = useT();
  const format = useTravelerFormatters();
  return (
    <div className="card stay-search-summary">
      <p>
        <strong>{search.destination.name}</strong>
        <span className="muted">
          {' '}
          · {format.calendarDate(search.checkIn)} – {format.calendarDate(search.checkOut)} ·{' '}
          {roomsSummary(search.rooms, t)}
        </span>
      </p>
      <button type="button" className="button button-secondary button-small" onClick={onEdit}>
        {t('stays.summary.edit')}
      </button>
    </div>
  );
}
