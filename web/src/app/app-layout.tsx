import { lazy, Suspense, useCallback } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/api/notifications.ts';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';
import { SignInButton } from '../features/auth/sign-in-button.tsx';
import { ProfileMenu } from '../features/auth/profile-menu.tsx';
import { InboxBell } from '../features/notifications/inbox/inbox-bell.tsx';
import { UpdateBanner } from '../features/update-check/update-banner.tsx';
import { demoQueries } from '../features/demo/demo-queries.ts';
import { tripKeys } from '../features/trips/trip-keys.ts';
import { useRouteAnnouncer } from './use-route-announcer.ts';
import { useAfterFirstPaint } from '../lib/after-first-paint.ts';
import { useSignOutElsewhere } from './sign-out-elsewhere.ts';
import { useT } from '../i18n/use-t.ts';
import { useProfileLanguage } from '../features/profile/use-profile-language.ts';

/** The product's name, the same in every language. */
const BRAND = 'Wayfare';

const LiveNotifications = lazy(async () => ({
  default: (await import('../features/notifications/live-notifications.tsx')).LiveNotifications,
}));
const DemoPanel = lazy(async () => ({
  default: (await import('../features/demo/demo-panel.tsx')).DemoPanel,
}));

export function AppLayout() {
  const { data: session } = useQuery(sessionQueries.current());
  const traveler = travelerOf(session);
  const demo = useQuery({ ...demoQueries.status(), enabled: Boolean(traveler) });
  const navigation = useNavigation();
  const location = useLocation();
  const announcement = useRouteAnnouncer();
  const t = useT();
  // What the traveler did not come to this page for waits until it has shown its own content.
  const painted = useAfterFirstPaint();
  useProfileLanguage({ enabled: Boolean(traveler) && painted });
  // Another tab's sign-out is heard from the first render, not only once the live notifications start.
  useSignOutElsewhere(Boolean(traveler));
  const queryClient = useQueryClient();
  // A notification about a trip refreshes the trip's timeline and segment pages where they are open.
  const refreshTrip = useCallback(
    (notification: Notification) =>
      void queryClient.invalidateQueries({ queryKey: tripKeys.about(notification.tripId) }),
    [queryClient],
  );

  // The strip's room is kept while its code loads, so the page does not jump down under a click.
  const demoPanelPending = (
    <div className="demo-panel demo-panel-pending" aria-hidden="true">
      <span className="button button-secondary button-small">{t('notices.demo.controls')}</span>
    </div>
  );

  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {painted && <UpdateBanner />}
      <header className="site-header">
        <div className="site-header-inner">
          <Link to="/" className="brand">
            <span className="brand-mark" aria-hidden="true">
              {BRAND.charAt(0)}
            </span>
            <span className="brand-name">{BRAND}</span>
          </Link>
          {traveler ? (
            <>
              <nav aria-label={t('nav.main')} className="main-nav">
                <NavLink to="/trips" className="nav-link">
                  {t('nav.trips')}
                </NavLink>
                <NavLink to="/flights" className="nav-link">
                  {t('nav.flights')}
                </NavLink>
                <NavLink to="/stays" className="nav-link">
                  {t('nav.stays')}
                </NavLink>
                <NavLink to="/bookings" className="nav-link">
                  {t('nav.bookings')}
                </NavLink>
                <InboxBell countUnread={painted} />
              </nav>
              <ProfileMenu name={traveler.name} email={traveler.email} />
            </>
          ) : (
            // The start page has its own prominent sign-in; one "Sign in" per page is clearer.
            location.pathname !== '/' && (
              <div className="header-actions">
                <SignInButton />
              </div>
            )
          )}
        </div>
        <div className="route-progress" data-active={navigation.state !== 'idle'} aria-hidden="true" />
      </header>
      {/* In the page's flow under the header, never floating over what the demo shows. */}
      {demo.data?.enabled && traveler && (
        <Suspense fallback={demoPanelPending}>{painted ? <DemoPanel /> : demoPanelPending}</Suspense>
      )}
      <main id="main" tabIndex={-1} className="site-main">
        <Outlet />
      </main>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {traveler && painted && (
        <Suspense fallback={null}>
          <LiveNotifications travelerId={traveler.id} onArrival={refreshTrip} />
        </Suspense>
      )}
    </>
  );
}
