import { Suspense } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { sessionQueries, travelerOf } from './session-queries.ts';
import { SignInButton } from './sign-in-button.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { NextTripPanel } from '../trips/index.ts';
import './start-page.css';

/** Why a sign-in that came back did not complete, as the BFF's callback names it (`/?signIn=<problem>`). */
const SIGN_IN_PROBLEMS: ReadonlyMap<string, MessageId> = new Map([
  ['expired', 'start.signInProblem.expired'],
  ['failed', 'start.signInProblem.failed'],
  ['unavailable', 'start.signInProblem.unavailable'],
]);

const JOURNEYS: readonly { to: string; title: MessageId; text: MessageId }[] = [
  { to: '/trips', title: 'nav.trips', text: 'start.journey.trips' },
  { to: '/flights', title: 'nav.flights', text: 'start.journey.flights' },
  { to: '/stays', title: 'nav.stays', text: 'start.journey.stays' },
  { to: '/bookings', title: 'nav.bookings', text: 'start.journey.bookings' },
  { to: '/inbox', title: 'nav.inbox', text: 'start.journey.inbox' },
];

export function StartPage() {
  const { data: session } = useQuery(sessionQueries.current());
  const traveler = travelerOf(session);
  const t = useT();
  const [searchParams] = useSearchParams();
  const signInProblem = SIGN_IN_PROBLEMS.get(searchParams.get('signIn') ?? '');
  useDocumentTitle(t(traveler ? 'start.homeTitle' : 'start.welcomeTitle'));

  if (traveler) {
    const firstName = traveler.name.split(/\s+/)[0] ?? traveler.name;
    const skeleton = <NextTripSkeleton label={t('nextTrip.label')} />;
    return (
      <div className="page">
        <section className="hero hero-compact" aria-labelledby="start-title">
          <h1 id="start-title">{t('start.welcomeBack', { name: firstName })}</h1>
        </section>
        <Suspense fallback={skeleton}>
          <NextTripPanel skeleton={skeleton} />
        </Suspense>
        <h2 className="visually-hidden">{t('start.shortcuts')}</h2>
        <ul className="journey-grid">
          {JOURNEYS.map((journey) => (
            <li key={journey.to}>
              <Link to={journey.to} className="journey-card">
                <span className="journey-title">{t(journey.title)}</span>
                <span className="muted">{t(journey.text)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div className="page">
      {signInProblem && (
        <p className="notice notice-warning" role="alert">
          {t(signInProblem)}
        </p>
      )}
      <section className="hero" aria-labelledby="start-title">
        <p className="hero-eyebrow">{t('start.eyebrow')}</p>
        <h1 id="start-title">{t('start.title')}</h1>
        <p className="hero-lead">{t('start.lead')}</p>
        <div className="row">
          <SignInButton className="button hero-button" returnTo="/" />
          <span className="muted small">{t('start.singleSignOn')}</span>
        </div>
      </section>
      <ul className="feature-list" aria-label={t('start.whatYouCanDo')}>
        {JOURNEYS.map((journey) => (
          <li key={journey.to} className="feature">
            <h2>{t(journey.title)}</h2>
            <p className="muted">{t(journey.text)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The next trip's card while its code and its trip load: the loaded card's lines (what it is, the trip's
 * name, its dates and cities, the next segment over two lines), each as wide as the text it stands for is
 * long, so they wrap where the trip's words will and the shortcuts below stay where they are.
 */
function NextTripSkeleton({ label }: { label: string }) {
  const bar = (width: string) => (
    <span>
      <span className={`skeleton skeleton-text ${width}`} />
    </span>
  );
  return (
    <section className="card next-trip next-trip-skeleton stack-sm" aria-busy="true" aria-label={label}>
      <p className="small">{bar('skeleton-width-label')}</p>
      <h2>{bar('skeleton-width-name')}</h2>
      <p className="row">
        {bar('skeleton-width-dates')}
        {bar('skeleton-width-cities')}
        {bar('skeleton-width-chip')}
      </p>
      <p>
        <span className="small">
          <span className="skeleton skeleton-text skeleton-width-label" />{' '}
        </span>
        <span className="skeleton skeleton-text skeleton-width-name" />{' '}
        <span className="skeleton skeleton-text skeleton-width-chip" />
        <br />
        <span className="skeleton skeleton-text skeleton-width-dates" />
      </p>
    </section>
  );
}
