import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { TripOverview } from '#shared/api/trips.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useT } from '../../i18n/use-t.ts';
import { LastUpdated } from '../../components/last-updated.tsx';
import type { Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useShownOnPage } from '../../lib/shown-on-page.ts';
import { LiveIndicator } from '../notifications/index.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { tripQueries } from './trip-queries.ts';
import { TripTimeline } from './trip-timeline.tsx';
import { TripStatusChip } from './trip-status-chip.tsx';
import { tripName } from '../../lib/trip-name.ts';
import { tripCities } from '../../lib/city-name.ts';
import { TextInLanguage } from '../../components/text-in-language.tsx';
import './trips.css';

/** A trip's timeline: every flight, stay, car and train in order, live. */
export function TripPage() {
  const { tripId = '' } = useParams();
  const trip = useQuery(tripQueries.trip(tripId));
  const format = useTravelerFormatters();
  const t = useT();
  useDocumentTitle(trip.data ? tripName(trip.data, t).text : t('trip.title'));
  // The timeline follows the trip's news live: a delay or a gate change shows here, not as a toast too.
  useShownOnPage({ kind: 'trip', tripId });

  return (
    <div className="page stack">
      <p>
        <Link to="/trips">{t('trip.allTrips')}</Link>
      </p>
      {trip.isPending ? (
        <div aria-busy="true" className="stack">
          <h1>{t('trip.title')}</h1>
          <div className="card stack-sm">
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-block" />
          </div>
        </div>
      ) : trip.isError ? (
        <>
          <h1>{t('trip.title')}</h1>
          <ErrorNotice error={trip.error} onRetry={() => void trip.refetch()} />
        </>
      ) : (
        <>
          <TripHeader trip={trip.data} format={format} refreshing={trip.isFetching} />
          <LastUpdated queryKey={tripQueries.trip(tripId).queryKey} format={format} />
          {/* The timeline's days (h3) and segments (h4) sit under a heading of their own, as on a segment's page. */}
          <section aria-labelledby="trip-timeline-title">
            <h2 id="trip-timeline-title" className="visually-hidden">
              {t('segment.timeline')}
            </h2>
            <TripTimeline tripId={trip.data.tripId} segments={trip.data.segments} format={format} />
          </section>
        </>
      )}
    </div>
  );
}

export function TripHeader({
  trip,
  format,
  refreshing,
  level = 1,
}: {
  trip: TripOverview;
  format: Formatters;
  refreshing: boolean;
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  const t = useT();
  return (
    <header className="trip-header">
      <Heading>
        <TextInLanguage value={tripName(trip, t)} />
      </Heading>
      <p className="row">
        <span>{format.calendarRange(trip.startDate, trip.endDate, 'long')}</span>
        <span className="muted">{tripCities(trip).join(' · ')}</span>
        <TripStatusChip trip={trip} />
        <LiveIndicator />
        {/* Its room is kept while nothing is checked, so a check does not rewrap the line. */}
        <span className={refreshing ? 'small muted' : 'small muted unseen'} aria-hidden={!refreshing}>
          {t('trip.checking')}
        </span>
      </p>
    </header>
  );
}
