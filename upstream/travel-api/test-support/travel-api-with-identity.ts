import { afterAll, beforeAll, beforeEach } from 'vitest';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { startTravelApi, type RunningTravelApi } from './start-travel-api.ts';
import { startTestIdentity, TEST_AUDIENCE, type TestIdentity } from './test-identity.ts';

export interface TravelApiWithIdentityOptions {
  /** Configuration on top of the identity's issuer and audience; a function when known only in beforeAll. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Clears the admin faults before each test, so that a test which sets one never leaks it into the next. */
  clearFaultsBeforeEach?: boolean;
}

export interface TravelApiWithIdentity {
  /** The travel API started in beforeAll. */
  readonly api: RunningTravelApi;
  /** The identity platform whose tokens `api` trusts. */
  readonly identity: TestIdentity;
  /**
   * Another travel API trusting the same identity, configured by `env` alone (not the suite's `env`); the
   * caller closes it.
   */
  startAnotherApi(env?: Record<string, string>): Promise<RunningTravelApi>;
}

/**
 * An identity platform and a travel API that trusts its tokens, started in beforeAll and closed in afterAll
 * of the suite that calls this.
 */
export function travelApiWithIdentity(options: TravelApiWithIdentityOptions = {}): TravelApiWithIdentity {
  let api: RunningTravelApi | undefined;
  let identity: TestIdentity | undefined;

  const trusting = (running: TestIdentity, env: Record<string, string>) =>
    startTravelApi({ IDENTITY_ISSUER: running.issuer, TRAVEL_API_AUDIENCE: TEST_AUDIENCE, ...env });

  const stack: TravelApiWithIdentity = {
    get api() {
      if (api === undefined) throw new Error('the travel API starts in beforeAll');
      return api;
    },
    get identity() {
      if (identity === undefined) throw new Error('the identity platform starts in beforeAll');
      return identity;
    },
    startAnotherApi: (env = {}) => trusting(stack.identity, env),
  };

  beforeAll(async () => {
    identity = await startTestIdentity();
    api = await trusting(identity, typeof options.env === 'function' ? options.env() : (options.env ?? {}));
  });
  afterAll(async () => {
    await api?.close();
    await identity?.close();
  });
  if (options.clearFaultsBeforeEach) {
    beforeEach(async () => {
      await adminFetch(stack.api.baseUrl, 'DELETE', '/admin/faults');
    });
  }
  return stack;
}
