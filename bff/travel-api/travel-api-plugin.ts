import fp from 'fastify-plugin';
import { readConfiguredFile } from '../config.ts';
import { createTravelApiClient } from './travel-api-client.ts';
import type { TravelApi } from './travel-api.ts';

/** Decorates `app.travelApi`, the signed client of the travel API, and closes it with the app. */
export const travelApiPlugin = fp(
  async (app) => {
    const client = createTravelApiClient({
      baseUrl: app.config.TRAVEL_API_URL,
      consumerSlug: app.config.CONSUMER_SLUG,
      consumerSecret: app.config.CONSUMER_SECRET,
      consumerNextSecret: app.config.CONSUMER_NEXT_SECRET,
      timeoutMs: app.config.UPSTREAM_TIMEOUT_MS,
      retryBudgetMs: app.config.UPSTREAM_RETRY_BUDGET_MS,
      logger: app.log,
      ca:
        app.config.TRAVEL_API_CA_FILE === undefined
          ? undefined
          : readConfiguredFile('TRAVEL_API_CA_FILE', app.config.TRAVEL_API_CA_FILE).toString('utf8'),
    });
    app.decorate('travelApi', client);
    app.addHook('onClose', async () => {
      await client.close();
    });
  },
  { name: 'travel-api', fastify: '5.x', decorators: { fastify: ['config'] } },
);

export default travelApiPlugin;

declare module 'fastify' {
  interface FastifyInstance {
    travelApi: TravelApi;
  }
}
