import { Suspense, useId, useState } from 'react';
import { useT } from '../../../i18n/use-t.ts';
import { preloadable } from '../../../lib/preloadable.tsx';
import type { OtherFlightsListProps } from './other-flights-list.tsx';
import './rebooking.css';

/**
 * The list's code (the searches, the review and the change's confirmation) comes when the traveler opens
 * it, or points at or focuses the button: a trip's page and home show an at-risk flight's button without
 * it, on a slow network sooner.
 */
const otherFlightsList = preloadable<OtherFlightsListProps>(
  async () => (await import('./other-flights-list.tsx')).OtherFlightsList,
);

/**
 * "See other flights" under an at-risk note: the flights of the broken leg's route that day and the next,
 * each marked whether it keeps the rest of the trip and priced against the booking it would replace; one
 * is chosen, its change reviewed and confirmed in one step.
 */
export function OtherFlightsPanel({
  tripId,
  leg,
  segments,
  format,
  initiallyOpen = false,
}: OtherFlightsListProps & { initiallyOpen?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(initiallyOpen);
  const regionId = useId();
  const preload = () => void otherFlightsList.preload().catch(() => undefined);
  return (
    <div className="other-flights">
      <button
        type="button"
        className="button button-secondary"
        aria-expanded={open}
        aria-controls={regionId}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen(!open)}
      >
        {t(open ? 'rebooking.hideOtherFlights' : 'rebooking.seeOtherFlights')}
      </button>
      <div id={regionId}>
        {open && (
          <Suspense
            fallback={
              <p className="small muted" role="status">
                {t('rebooking.searching')}
              </p>
            }
          >
            <otherFlightsList.Component tripId={tripId} leg={leg} segments={segments} format={format} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
