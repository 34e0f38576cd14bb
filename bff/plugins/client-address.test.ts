import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test-support/redis-server-process.ts';
import { startTestBff, type TestBff } from '../test-support/start-test-bff.ts';
import { GUEST_SESSIONS_PER_MINUTE } from '../routes/api/guest-session-routes.ts';
import { keepAddressHops } from './client-address.ts';

describe('a forwarded chain', () => {
  const kept = (value: string | undefined) => {
    const headers = value === undefined ? {} : { 'x-forwarded-for': value };
    keepAddressHops(headers);
    return headers['x-forwarded-for'];
  };

  it('keeps the addresses at its right, up to the first value that is not one', () => {
    expect(kept('198.51.100.1, 203.0.113.9')).toBe('198.51.100.1, 203.0.113.9');
    expect(kept('<script>, 203.0.113.9')).toBe('203.0.113.9');
    expect(kept('198.51.100.1, unknown, 2001:db8::1')).toBe('2001:db8::1');
    expect(kept('203.0.113.9, <script>')).toBeUndefined();
    expect(kept('')).toBeUndefined();
    expect(kept(undefined)).toBeUndefined();
  });
});

/**
 * A BFF that believes X-Forwarded-For from 127.0.0.1 (its front), asked for guest sessions by a client on
 * that address: the address a value that is not one names is never a client of its own.
 */
describe('the client address behind a trusted front', () => {
  let bff: TestBff;

  beforeAll(async () => {
    bff = await startTestBff({
      TRUST_PROXY: '127.0.0.1',
      // Nothing listens there: a guest session the limit lets through fails at once, after counting.
      TRAVEL_API_URL: `http://127.0.0.1:${await freePort()}`,
      UPSTREAM_RETRY_BUDGET_MS: '0',
    });
  });

  afterAll(async () => {
    await bff?.close();
  });

  const startGuestSession = async (forwardedFor?: string) =>
    (
      await fetch(`${bff.url}/api/guest-session`, {
        method: 'POST',
        headers: {
          'x-requested-with': 'wayfare',
          ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
        },
      })
    ).status;

  it('counts a forwarded value that is not an address as the front itself', async () => {
    const notAddresses = ['<script>', 'unknown', '203.0.113.9, <script>', 'evil.example', ' '];
    for (let attempt = 0; attempt < GUEST_SESSIONS_PER_MINUTE; attempt += 1) {
      expect(await startGuestSession(notAddresses[attempt % notAddresses.length])).not.toBe(429);
    }
    // The same quota as a request that forwarded nothing: the front's address.
    expect(await startGuestSession()).toBe(429);
    expect(await startGuestSession('<img src=x>')).toBe(429);
    // A real address the front forwarded is a client of its own.
    expect(await startGuestSession('203.0.113.9')).not.toBe(429);
  });
});
