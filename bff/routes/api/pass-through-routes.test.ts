import type { FastifyInstance, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PASS_THROUGH_ROUTES, registerPassThrough, upstreamPath } from './pass-through-routes.ts';

const parameters = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');

describe('the pass-through table', () => {
  it('percent-encodes every id it puts in a /v1 path, each the same way', () => {
    expect(
      upstreamPath('/v1/trips/:tripId/segments/:segmentId', { tripId: 'a/b', segmentId: '?x=1#y' }),
    ).toBe('/v1/trips/a%2Fb/segments/%3Fx%3D1%23y');
    expect(upstreamPath('/v1/offers/:offerId/price-check', { offerId: '../bookings' })).toBe(
      '/v1/offers/..%2Fbookings/price-check',
    );
  });

  it('refuses a template naming a parameter the route does not have', () => {
    expect(() => upstreamPath('/v1/bookings/:bookingId', {})).toThrow(/bookingId/);
  });

  it('fills each /v1 path from the route’s own parameters, declared by its params schema', () => {
    for (const route of PASS_THROUGH_ROUTES) {
      const key = `${route.method} ${route.url}`;
      expect(parameters(route.upstream), key).toEqual(parameters(route.url));
      expect(route.params !== undefined, key).toBe(parameters(route.url).length > 0);
    }
  });

  it('lists each method and path once', () => {
    const keys = PASS_THROUGH_ROUTES.map((route) => `${route.method} ${route.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives Fastify a schema for each request part a row declares and names no part it does not', () => {
    // A part named without a schema makes Fastify warn (FSTWRN001) at every start-up.
    const registered: RouteOptions[] = [];
    const app = {
      config: { RATE_LIMIT_SEARCH_PER_MINUTE: 30, RATE_LIMIT_FARES_PER_MINUTE: 30 },
      withTypeProvider: () => ({ route: (options: RouteOptions) => registered.push(options) }),
    } as unknown as FastifyInstance;
    for (const route of PASS_THROUGH_ROUTES) registerPassThrough(app, route);

    expect(registered).toHaveLength(PASS_THROUGH_ROUTES.length);
    for (const [index, options] of registered.entries()) {
      const route = PASS_THROUGH_ROUTES[index];
      const parts = ['params', 'querystring', 'body'].filter((part) => part in (options.schema ?? {}));
      const declared = [route?.params && 'params', route?.query && 'querystring', route?.body && 'body'];
      expect(parts, `${options.method as string} ${options.url}`).toEqual(declared.filter(Boolean));
    }
  });
});
