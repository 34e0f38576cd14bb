import { useT } from '../../../i18n/use-t.ts';
import { useTravelerFormatters } from '../../../lib/use-traveler-formatters.ts';
import { roomsSummary } from '../hotel/stay-header.tsx';
import type { StaySearch } from './stay-search-params.ts';

/** The search in one line: what the page shows instead of the form once a search ran. */
export function StaySearchSummary({ search }: { search: StaySearch }) {
  const t = useT();
  const format = useTravelerFormatters();
  return (
    <>
      <strong>{search.destination.name}</strong>
      <span className="muted">
        {' '}
        · {format.calendarDate(search.checkIn)} – {format.calendarDate(search.checkOut)} ·{' '}
        {roomsSummary(search.rooms, t)}
      </span>
    </>
  );
}
