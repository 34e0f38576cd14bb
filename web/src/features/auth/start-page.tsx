import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { sessionQueries, travelerOf } from './session-queries.ts';
import { SignInButton } from './sign-in-button.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { NextTripPanel } from '../trips/next-trip-panel.tsx';
import './start-page.css';

const JOURNEYS = [
  { to: '/trips', title: 'Trips', text: 'Each trip as one timeline, with what a delay puts at risk.' },
  { to: '/flights', title: 'Flights', text: 'One-way, return or multi-city, sorted the way you decide.' },
  { to: '/stays', title: 'Stays', text: 'Hotels priced live, room by room, with clear cancellation terms.' },
  { to: '/bookings', title: 'Bookings', text: 'Every trip you booked, business and personal, in one list.' },
  { to: '/inbox', title: 'Inbox', text: 'Delays and gate changes the moment they happen.' },
] as const;

export function StartPage() {
  const { data: session } = useQuery(sessionQueries.current());
  const traveler = travelerOf(session);
  useDocumentTitle(traveler ? 'Home' : 'Welcome');

  if (traveler) {
    const firstName = traveler.name.split(/\s+/)[0] ?? traveler.name;
    return (
      <div className="page">
        <section className="hero hero-compact" aria-labelledby="start-title">
          <h1 id="start-title">Welcome back, {firstName}</h1>
        </section>
        <NextTripPanel />
        <h2 className="visually-hidden">Shortcuts</h2>
        <ul className="journey-grid">
          {JOURNEYS.map((journey) => (
            <li key={journey.to}>
              <Link to={journey.to} className="journey-card">
                <span className="journey-title">{journey.title}</span>
                <span className="muted">{journey.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div className="page">
      <section className="hero" aria-labelledby="start-title">
        <p className="hero-eyebrow">Business and personal travel, together</p>
        <h1 id="start-title">Travel that keeps up with you</h1>
        <p className="hero-lead">
          Search flights and stays, keep every booking in one place, and hear about a delay before the
          departure board does.
        </p>
        <div className="row">
          <SignInButton returnTo="/flights" className="button hero-button" />
          <span className="muted small">Single sign-on with your Wayfare account.</span>
        </div>
      </section>
      <ul className="feature-list" aria-label="What you can do">
        {JOURNEYS.map((journey) => (
          <li key={journey.to} className="feature">
            <h2>{journey.title}</h2>
            <p className="muted">{journey.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
