import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { TripOverview } from '#shared/api/trips.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { LastUpdated } from '../../components/last-updated.tsx';
import { todayIsoDate, type Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTravelerFormatters } from '../profile/use-traveler-formatters.ts';
import { segmentKind } from './segment-kinds.ts';
import { tripQueries } from './trip-queries.ts';
import { TripStatusChip } from './trip-status-chip.tsx';
import './trips.css';

export type TripWhen = 'in-progress' | 'upcoming' | 'past';

/** Where a trip stands against today's date: going on now, still ahead, or over. */
export function tripWhen(
  trip: Pick<TripOverview, 'startDate' | 'endDate' | 'status'>,
  today: string,
): TripWhen {
  if (trip.endDate < today || trip.status === 'COMPLETED') return 'past';
  return trip.startDate <= today ? 'in-progress' : 'upcoming';
}

const GROUPS: { when: TripWhen; title: string; empty: string }[] = [
  { when: 'in-progress', title: 'In progress', empty: '' },
  { when: 'upcoming', title: 'Upcoming', empty: 'No trips ahead. Book a flight or a stay to start one.' },
  { when: 'past', title: 'Past', empty: 'No past trips yet.' },
];

export function TripsPage() {
  useDocumentTitle('Trips');
  const trips = useQuery(tripQueries.list());
  const format = useTravelerFormatters();
  const today = todayIsoDate();

  return (
    <div className="page stack">
      <div className="page-header">
        <h1>Trips</h1>
        <LastUpdated queryKey={tripQueries.list().queryKey} format={format} />
      </div>
      {trips.isPending ? (
        <div aria-busy="true" className="card stack-sm">
          <span className="skeleton skeleton-line" />
          <span className="skeleton skeleton-block" />
        </div>
      ) : trips.isError ? (
        <ErrorNotice error={trips.error} onRetry={() => void trips.refetch()} />
      ) : (
        GROUPS.map((group) => {
          const items = trips.data.items.filter((trip) => tripWhen(trip, today) === group.when);
          if (group.when === 'past') items.reverse();
          if (items.length === 0 && !group.empty) return null;
          return (
            <section key={group.when} aria-labelledby={`trips-${group.when}`} className="stack-sm">
              <h2 id={`trips-${group.when}`}>{group.title}</h2>
              {items.length === 0 ? (
                <p className="muted">{group.empty}</p>
              ) : (
                <ul className="card-list trip-cards">
                  {items.map((trip) => (
                    <li key={trip.tripId}>
                      <TripCard trip={trip} format={format} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}

function kindsSummary(kinds: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts]
    .map(([kind, count]) => {
      const label = segmentKind(kind).label.toLowerCase();
      return `${count} ${count === 1 ? label : `${label}s`}`;
    })
    .join(', ');
}

function TripCard({ trip, format }: { trip: TripOverview; format: Formatters }) {
  const titleId = `trip-${trip.tripId}`;
  return (
    <article className="card trip-card" aria-labelledby={titleId}>
      <div className="trip-card-main">
        <h3 id={titleId}>
          <Link to={`/trips/${encodeURIComponent(trip.tripId)}`} className="card-link">
            {trip.title}
          </Link>
        </h3>
        <p className="small">
          {format.calendarDate(trip.startDate, 'long')} – {format.calendarDate(trip.endDate, 'long')}
        </p>
        <p className="small muted">
          {trip.cities.join(' · ')} · {kindsSummary(trip.segmentKinds)}
        </p>
      </div>
      <TripStatusChip trip={trip} />
    </article>
  );
}
