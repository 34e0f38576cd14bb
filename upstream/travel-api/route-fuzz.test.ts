import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzRequests, isErrorEnvelope, readAnswer } from './test-support/request-fuzz.ts';
import { signedFetch } from './test-support/signed-fetch.ts';
import { travelApiWithIdentity } from './test-support/travel-api-with-identity.ts';

/**
 * Random requests, signed and with a traveler's bearer so that they get past the guards, to every route of
 * the travel API's live route table but the admin levers: never a 5xx, and every refusal the envelope.
 */

const stack = travelApiWithIdentity({
  env: {
    TRAVEL_API_STREAM_PACE_MS: '0',
    TRAVEL_API_RATE_LIMIT_MAX: '100000',
    TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '100000',
  },
});
let token: string;

beforeAll(async () => {
  token = await stack.identity.token();
});

describe('travel API fuzz', () => {
  it('answers every route with no 5xx and the envelope on every refusal', async () => {
    // The admin API sets faults and simulates events on purpose: it is the one place a 5xx is asked for.
    const routes = stack.api.app.routeTable.filter(
      (route) => route.method !== 'HEAD' && route.method !== 'OPTIONS' && !route.url.startsWith('/admin'),
    );
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(fuzzRequests(route.method, route.url), async (request) => {
          const answer = await readAnswer(
            await signedFetch(stack.api.baseUrl, {
              method: request.method,
              path: request.path,
              token,
              headers: request.headers,
              ...(request.body === undefined ? {} : { body: request.body }),
            }),
          );
          expect(answer.status, `${request.method} ${request.path}`).toBeLessThan(500);
          if (answer.status >= 400) expect(isErrorEnvelope(answer.text), answer.text).toBe(true);
          expect(answer.text).not.toMatch(/\bat .+\.ts:\d+/);
        }),
        { numRuns: 25 },
      );
    }
  }, 180_000);
});
