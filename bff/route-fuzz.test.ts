import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fuzzRequests,
  isErrorEnvelope,
  readAnswer,
} from '../upstream/travel-api/test-support/request-fuzz.ts';
import { startGatewayStack, type GatewayStack } from './test-support/gateway-stack.ts';
import { APP_ORIGIN, type TestBrowser } from './test-support/sign-in-stack.ts';

/**
 * Random requests from a signed-in browser of the app (session cookie, anti-forgery header) to every route of
 * the BFF's live route table: never a 5xx, and every refusal the envelope. The demo levers (they make the
 * travel API fail on purpose) and sign-out (it ends the browser's session) are left out.
 */

let stack: GatewayStack;
let traveler: TestBrowser;

beforeAll(async () => {
  stack = await startGatewayStack({
    travelApiEnv: { TRAVEL_API_RATE_LIMIT_MAX: '100000', TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '100000' },
  });
  traveler = await stack.signIn();
}, 30_000);
afterAll(async () => {
  await stack.close();
});

const LEFT_OUT = (method: string, url: string) =>
  method === 'HEAD' ||
  method === 'OPTIONS' ||
  url.startsWith('/api/demo/') ||
  (method === 'POST' && url === '/auth/logout');

/** Files of the built app, each a route of its own: reads that change nothing, fuzzed several at a time. */
const isBuiltFile = (method: string, url: string) =>
  method === 'GET' && !url.startsWith('/api/') && /\/[^/:*]+\.[a-z0-9]+$/i.test(url);

/** How many built files are fuzzed at the same time. */
const FILES_AT_ONCE = 8;

describe('BFF fuzz', () => {
  it('answers every route with no 5xx and the envelope on every refusal', async () => {
    const routes = stack.app.routeTable.filter((route) => !LEFT_OUT(route.method, route.url));
    const cookie = `__Host-wayfare_session=${traveler.cookie(APP_ORIGIN, '__Host-wayfare_session')}`;
    expect(routes.length).toBeGreaterThan(20);
    const fuzz = (route: { method: string; url: string }) =>
      fc.assert(
        fc.asyncProperty(fuzzRequests(route.method, route.url), async (request) => {
          const answer = await readAnswer(
            await fetch(`${stack.bffUrl}${request.path}`, {
              method: request.method,
              headers: {
                ...request.headers,
                cookie,
                'x-requested-with': 'wayfare',
                'sec-fetch-site': 'same-origin',
              },
              body: request.body,
              redirect: 'manual',
              signal: AbortSignal.timeout(10_000),
            }),
          );
          const where = `${request.method} ${request.path}`;
          expect(answer.status, where).toBeLessThan(500);
          const redirect = answer.status >= 300 && answer.status < 400;
          if (answer.status >= 400 && !redirect)
            expect(isErrorEnvelope(answer.text), `${where}: ${answer.text}`).toBe(true);
          expect(answer.text).not.toMatch(/\bat .+\.ts:\d+/);
        }),
        { numRuns: 15 },
      );
    const files = routes.filter((route) => isBuiltFile(route.method, route.url));
    expect(files.length).toBeGreaterThan(10);
    for (let start = 0; start < files.length; start += FILES_AT_ONCE) {
      await Promise.all(files.slice(start, start + FILES_AT_ONCE).map(fuzz));
    }
    for (const route of routes.filter((route) => !files.includes(route))) await fuzz(route);
    expect(await (await traveler.fetch('/api/session')).json()).toMatchObject({ authenticated: true });
  }, 240_000);
});
