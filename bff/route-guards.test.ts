import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concretePath } from '#shared/path-spellings.ts';
import type { RouteEntry } from '#shared/route-path.ts';
import {
  expectSpellingsGuarded,
  guardAnswer,
  type GuardAnswer,
} from '../upstream/travel-api/test-support/guard-answers.ts';
import { PASS_THROUGH_ROUTES } from './routes/api/pass-through-routes.ts';
import { startGatewayStack, type GatewayStack } from './test-support/gateway-stack.ts';
import type { TestBrowser } from './test-support/sign-in-stack.ts';

/**
 * Every guard of the BFF, proven route by route from its live route table: each route refuses what its
 * guards refuse, and every spelling of its path that percent-encodes a character (each segment, upper and
 * lower hex) gets the plain path's answer or a 404 envelope, never a way around the guard.
 */

let stack: GatewayStack;
let traveler: TestBrowser;
let routes: RouteEntry[];

beforeAll(async () => {
  stack = await startGatewayStack();
  traveler = await stack.signIn();
  routes = stack.app.routeTable.filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
}, 30_000);
afterAll(async () => {
  await stack.close();
});

const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const FROM_THE_APP = { 'x-requested-with': 'wayfare', 'sec-fetch-site': 'same-origin' };

async function answer(
  browser: TestBrowser,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<GuardAnswer> {
  const withBody = method !== 'GET' && method !== 'DELETE';
  return guardAnswer(
    await browser.fetch(path, {
      method,
      headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
      body: withBody ? '{}' : undefined,
      signal: AbortSignal.timeout(5_000),
    }),
  );
}

const hasGuard = (hooks: unknown, guard: unknown): boolean => [hooks].flat().includes(guard);

/** The /api routes the anti-forgery rule leaves open: reads that change nothing and attach no token. */
const OPEN_TO_CROSS_SITE = new Set([
  'GET /api/session',
  'GET /api/app/update-check',
  'GET /api/push/public-key',
]);

describe('BFF guards by route', () => {
  it('the anti-forgery gate refuses a cross-site request on every /api route but the open reads, and on sign-out', async () => {
    const refusedEverywhere: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const guarded =
        (route.url.startsWith('/api/') &&
          !route.url.startsWith('/api/docs') &&
          !OPEN_TO_CROSS_SITE.has(key)) ||
        key === 'POST /auth/logout';
      if (!guarded) continue;
      const plain = await answer(traveler, route.method, concretePath(route.url), CROSS_SITE);
      expect(plain, key).toEqual({ status: 403, code: 'CSRF_REJECTED' });
      refusedEverywhere.push(key);
    }
    expect(refusedEverywhere.length).toBeGreaterThan(20);
  }, 60_000);

  it('the session gate refuses every route that carries it when the browser has no session', async () => {
    const stranger = stack.browser();
    const gated = routes.filter((route) => hasGuard(route.onRequest, stack.app.requireSession));
    expect(gated.length).toBeGreaterThan(15);
    for (const route of gated) {
      const plain = await answer(stranger, route.method, concretePath(route.url), FROM_THE_APP);
      expect(plain, `${route.method} ${route.url}`).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
  }, 60_000);

  it('the traveler gate refuses a guest session on every route that carries it, before anything goes upstream', async () => {
    const guest = stack.browser();
    expect((await answer(guest, 'POST', '/api/guest-session', FROM_THE_APP)).status).toBe(201);
    const gated = routes.filter((route) => hasGuard(route.onRequest, stack.app.requireTravelerSession));
    expect(gated.length).toBeGreaterThan(25);
    const upstreamCalls = stack.tap.seen.length;
    for (const route of gated) {
      const key = `${route.method} ${route.url}`;
      expect(hasGuard(route.onRequest, stack.app.requireSession), key).toBe(true);
      const refused = await answer(guest, route.method, concretePath(route.url), FROM_THE_APP);
      expect(refused, key).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
    expect(stack.tap.seen).toHaveLength(upstreamCalls);
    // The guest session itself lives on: it still prices a shared stay's fares.
    const session = await guest.fetch('/api/session');
    expect(await session.json()).toMatchObject({ authenticated: true, kind: 'guest' });
  }, 60_000);

  it('every pass-through route is behind both gates, and the guest-only exception is the stay fares', () => {
    const gates = (method: string, url: string) => {
      const route = routes.find((entry) => entry.method === method && entry.url === url);
      expect(route, `${method} ${url}`).toBeDefined();
      return {
        session: hasGuard(route?.onRequest, stack.app.requireSession),
        traveler: hasGuard(route?.onRequest, stack.app.requireTravelerSession),
      };
    };
    for (const { method, url } of PASS_THROUGH_ROUTES)
      expect(gates(method, url), `${method} ${url}`).toEqual({ session: true, traveler: true });
    expect(gates('POST', '/api/stays/fares')).toEqual({ session: true, traveler: false });
    const travelerRoutes = routes.filter((route) =>
      hasGuard(route.onRequest, stack.app.requireTravelerSession),
    );
    const sessionRoutes = routes.filter((route) => hasGuard(route.onRequest, stack.app.requireSession));
    expect(
      sessionRoutes.filter((route) => !travelerRoutes.includes(route)).map((route) => route.url),
    ).toEqual(['/api/stays/fares']);
  });

  it('every percent-encoded spelling of every route gets the plain path’s guarded answer or a 404 envelope', async () => {
    const stranger = stack.browser();
    let spellingsTried = 0;
    for (const route of routes) {
      const path = concretePath(route.url);
      for (const [browser, headers] of [
        [traveler, CROSS_SITE],
        [stranger, FROM_THE_APP],
      ] as const) {
        spellingsTried += await expectSpellingsGuarded(route.method, path, (spelled) =>
          answer(browser, route.method, spelled, headers),
        );
      }
    }
    expect(spellingsTried).toBeGreaterThan(50);
  }, 120_000);

  it('the reported spellings are refused: cross-site sign-out and guest session', async () => {
    const logout = await answer(traveler, 'POST', '/%61uth/logout', CROSS_SITE);
    expect(logout).toEqual({ status: 403, code: 'CSRF_REJECTED' });
    const guest = await answer(traveler, 'POST', '/%61pi/guest-session', CROSS_SITE);
    expect(guest).toEqual({ status: 403, code: 'CSRF_REJECTED' });
    // The traveler is still signed in.
    const session = await traveler.fetch('/api/session');
    expect(await session.json()).toMatchObject({ authenticated: true });
  });
});
