import { beforeAll, describe, expect, it } from 'vitest';
import { concretePath } from '#shared/path-spellings.ts';
import type { RouteEntry } from '#shared/route-path.ts';
import { expectSpellingsGuarded, guardAnswer, type GuardAnswer } from './test-support/guard-answers.ts';
import { signedFetch } from './test-support/signed-fetch.ts';
import { TEST_ADMIN_TOKEN } from './test-support/start-travel-api.ts';
import { travelApiWithIdentity } from './test-support/travel-api-with-identity.ts';

/**
 * Every guard of the travel API stand-in, proven route by route from its live route table: the consumer
 * signature on every /v1 route, the bearer on the traveler routes, the admin token on /admin, and every
 * spelling of a path that percent-encodes a character (each segment, upper and lower hex) answered as the
 * plain path or with a 404 envelope.
 */

const stack = travelApiWithIdentity();
let routes: RouteEntry[];

beforeAll(() => {
  routes = stack.api.app.routeTable.filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
});

type Caller = (method: string, path: string) => Promise<Response>;

const withBody = (method: string) => method !== 'GET' && method !== 'DELETE';

const unsigned: Caller = (method, path) =>
  fetch(`${stack.api.baseUrl}${path}`, {
    method,
    headers: withBody(method) ? { 'content-type': 'application/json' } : {},
    body: withBody(method) ? '{}' : undefined,
    signal: AbortSignal.timeout(5_000),
  });

const signedWithoutBearer: Caller = (method, path) =>
  signedFetch(stack.api.baseUrl, { method, path, ...(withBody(method) ? { json: {} } : {}) });

const answer = async (caller: Caller, method: string, path: string): Promise<GuardAnswer> =>
  guardAnswer(await caller(method, path));

const isV1 = (route: RouteEntry) => route.url.startsWith('/v1/');
const isAdmin = (route: RouteEntry) => route.url.startsWith('/admin/');
const carries = (hooks: unknown, guard: unknown) => [hooks].flat().includes(guard);

describe('travel API guards by route', () => {
  it('refuses an unsigned call on every /v1 route and a call without the admin token on every /admin route', async () => {
    const v1 = routes.filter(isV1);
    const admin = routes.filter(isAdmin);
    expect(v1.length).toBeGreaterThan(15);
    expect(admin.length).toBeGreaterThan(3);
    for (const route of v1) {
      const got = await answer(unsigned, route.method, concretePath(route.url));
      expect(got, `${route.method} ${route.url}`).toEqual({ status: 401, code: 'CONSUMER_AUTH_REQUIRED' });
    }
    for (const route of admin) {
      const got = await answer(unsigned, route.method, concretePath(route.url));
      expect(got, `${route.method} ${route.url}`).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
  }, 60_000);

  it('refuses a signed call without a bearer on every route that needs a traveler or a guest', async () => {
    const needBearer = routes.filter(
      (route) =>
        carries(route.preParsing, stack.api.app.requireTraveler) ||
        carries(route.preParsing, stack.api.app.requireTravelerOrGuest),
    );
    expect(needBearer.length).toBeGreaterThan(10);
    for (const route of needBearer) {
      const got = await answer(signedWithoutBearer, route.method, concretePath(route.url));
      expect(got, `${route.method} ${route.url}`).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
  }, 60_000);

  it('every percent-encoded spelling of every route gets the plain path’s guarded answer or a 404 envelope', async () => {
    let spellingsTried = 0;
    for (const route of routes) {
      const path = concretePath(route.url);
      for (const caller of [unsigned, signedWithoutBearer]) {
        spellingsTried += await expectSpellingsGuarded(route.method, path, (spelled) =>
          answer(caller, route.method, spelled),
        );
      }
    }
    expect(spellingsTried).toBeGreaterThan(80);
  }, 120_000);

  it('the reported spellings are refused: /%761 without a signature, /%61dmin without the token', async () => {
    const bearer = { authorization: `Bearer ${await stack.identity.token()}` };
    const updateCheck = await fetch(`${stack.api.baseUrl}/%761/app/update-check?currentVersion=1.0.0`);
    expect(updateCheck.status).toBe(401);
    const profile = await fetch(`${stack.api.baseUrl}/%761/profile`, { headers: bearer });
    expect(profile.status).toBe(401);
    const guest = await fetch(`${stack.api.baseUrl}/%761/guest-sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(guest.status).toBe(401);

    expect((await fetch(`${stack.api.baseUrl}/%61dmin/faults`)).status).toBe(401);
    const set = await fetch(`${stack.api.baseUrl}/%61dmin/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ providerDown: true }),
    });
    expect(set.status).toBe(401);
    const faults = await fetch(`${stack.api.baseUrl}/admin/faults`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(await faults.json()).toMatchObject({ providerDown: false });
  });
});
