import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BookingLevers } from './booking-levers.ts';
import { QuoteStore } from './quote-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Offers and rates quoted by flight search and stay fares, for price checks and bookings. */
    quotes: QuoteStore;
    /** The admin API's one-shot levers of price checks, payments and bookings, per traveler. */
    bookingLevers: BookingLevers;
  }
}

/** The quote store, registered before the routes that quote (flight search, stay fares). */
export default fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    app.decorate('quotes', new QuoteStore(app.db));
    app.decorate('bookingLevers', new BookingLevers());
    done();
  },
  { name: 'quotes', dependencies: ['db'] },
);
