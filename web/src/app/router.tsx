import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { staySearchForm } from '../features/stays/search/lazy-stay-search-form.ts';
import { AppLayout } from './app-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { requireSession } from './require-session.ts';
import { travelerHomeLoader } from './traveler-home-loader.ts';
import { tripLoader } from './trip-loader.ts';
import { rootLoader } from './root-loader.ts';
import { formUnlessSearched } from './search-form-loader.ts';
import { flightsLoader } from './flights-loader.ts';

/** Every screen is its own chunk, loaded when the traveler first goes there. */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      id: 'root',
      element: <AppLayout />,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <div className="page" aria-busy="true" />,
      loader: rootLoader(queryClient),
      children: [
        {
          errorElement: <RouteErrorPage />,
          children: [
            {
              index: true,
              loader: travelerHomeLoader(queryClient),
              lazy: async () => ({ Component: (await import('../features/auth/start-page.tsx')).StartPage }),
            },
            {
              path: 'share/stay',
              lazy: async () => ({
                Component: (await import('../features/stays/hotel/shared-stay-page.tsx')).SharedStayPage,
              }),
            },
            {
              loader: requireSession(queryClient),
              children: [
                {
                  path: 'flights',
                  loader: flightsLoader(queryClient),
                  lazy: async () => ({
                    Component: (await import('../features/flights/flights-page.tsx')).FlightsPage,
                  }),
                },
                {
                  path: 'stays',
                  loader: formUnlessSearched(staySearchForm, 'checkIn'),
                  lazy: async () => ({
                    Component: (await import('../features/stays/results/stays-page.tsx')).StaysPage,
                  }),
                },
                {
                  path: 'stays/properties/:propertyId',
                  lazy: async () => ({
                    Component: (await import('../features/stays/hotel/property-page.tsx')).PropertyPage,
                  }),
                },
                {
                  path: 'bookings',
                  lazy: async () => ({
                    Component: (await import('../features/bookings/bookings-page.tsx')).BookingsPage,
                  }),
                },
                {
                  path: 'bookings/:bookingId',
                  lazy: async () => ({
                    Component: (await import('../features/checkout/booking-page.tsx')).BookingPage,
                  }),
                },
                {
                  path: 'checkout/:offerId',
                  lazy: async () => ({
                    Component: (await import('../features/checkout/checkout-page.tsx')).CheckoutPage,
                  }),
                },
                {
                  path: 'trips',
                  lazy: async () => ({
                    Component: (await import('../features/trips/trips-page.tsx')).TripsPage,
                  }),
                },
                {
                  path: 'trips/:tripId',
                  loader: tripLoader(queryClient),
                  lazy: async () => ({
                    Component: (await import('../features/trips/trip-page.tsx')).TripPage,
                  }),
                },
                {
                  path: 'trips/:tripId/segment/:segmentId',
                  lazy: async () => ({
                    Component: (await import('../features/trips/segment-page.tsx')).SegmentPage,
                  }),
                },
                {
                  path: 'inbox',
                  lazy: async () => ({
                    Component: (await import('../features/notifications/inbox/inbox-page.tsx')).InboxPage,
                  }),
                },
                {
                  path: 'profile',
                  lazy: async () => ({
                    Component: (await import('../features/profile/profile-page.tsx')).ProfilePage,
                  }),
                },
              ],
            },
            { path: '*', Component: NotFoundPage },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(queryClient));
}
