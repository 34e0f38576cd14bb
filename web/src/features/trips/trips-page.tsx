import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { TripOverview } from '#shared/api/trips.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT, type Translate } from '../../i18n/use-t.ts';
import { LastUpdated } from '../../components/last-updated.tsx';
import { todayIsoDate, type Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { segmentKind } from './segment-kinds.ts';
import { tripQueries } from './trip-queries.ts';
import { TripStatusChip } from './trip-status-chip.tsx';
import { tripName } from '../../lib/trip-name.ts';
import { tripCities } from '../../lib/city-name.ts';
import { TextInLanguage } from '../../components/text-in-language.tsx';
import './trips.css';

export type TripWhen = 'in-progress' | 'upcoming' | 'past' | 'cancelled';

/** Where a trip stands against today's date: going on now, still ahead, or over; or cancelled whenever it was. */
export function tripWhen(
  trip: Pick<TripOverview, 'startDate' | 'endDate' | 'status'>,
  today: string,
): TripWhen {
  if (trip.status === 'CANCELLED') return 'cancelled';
  if (trip.endDate < today || trip.status === 'COMPLETED') return 'past';
  return trip.startDate <= today ? 'in-progress' : 'upcoming';
}

const GROUPS: { when: TripWhen; empty: MessageId | undefined }[] = [
  { when: 'in-progress', empty: undefined },
  { when: 'upcoming', empty: 'trips.empty.upcoming' },
  { when: 'past', empty: 'trips.empty.past' },
  { when: 'cancelled', empty: undefined },
];

export function TripsPage() {
  const t = useT();
  useDocumentTitle(t('trips.title'));
  const trips = useQuery(tripQueries.list());
  const format = useTravelerFormatters();
  const today = todayIsoDate();

  return (
    <div className="page stack">
      <div className="page-header">
        <h1>{t('trips.title')}</h1>
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
          if (group.when === 'past' || group.when === 'cancelled') items.reverse();
          if (items.length === 0 && !group.empty) return null;
          return (
            <section key={group.when} aria-labelledby={`trips-${group.when}`} className="stack-sm">
              <h2 id={`trips-${group.when}`}>{t(`trips.group.${group.when}`)}</h2>
              {items.length === 0 ? (
                <p className="muted">{group.empty && t(group.empty)}</p>
              ) : (
                <ul className="card-list trip-cards">
                  {items.map((trip) => (
                    <li key={trip.tripId}>
                      <TripCard trip={trip} format={format} t={t} />
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

function kindsSummary(kinds: readonly string[], t: Translate): string {
  const counts = new Map<MessageId, number>();
  for (const kind of kinds) {
    const id = segmentKind(kind).count;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts].map(([id, count]) => t(id, { count })).join(', ');
}

function TripCard({ trip, format, t }: { trip: TripOverview; format: Formatters; t: Translate }) {
  const titleId = `trip-${trip.tripId}`;
  return (
    <article className="card trip-card" aria-labelledby={titleId}>
      <div className="trip-card-main">
        <h3 id={titleId}>
          <Link to={`/trips/${encodeURIComponent(trip.tripId)}`} className="card-link">
            <TextInLanguage value={tripName(trip, t)} />
          </Link>
        </h3>
        <p className="small">{format.calendarRange(trip.startDate, trip.endDate, 'long')}</p>
        <p className="small muted">
          {tripCities(trip).join(' · ')} · {kindsSummary(trip.segmentKinds, t)}
        </p>
      </div>
      <TripStatusChip trip={trip} />
    </article>
  );
}
