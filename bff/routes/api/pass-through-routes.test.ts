import { describe, expect, it } from 'vitest';
import { PASS_THROUGH_ROUTES, upstreamPath } from './pass-through-routes.ts';

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
});
