import { createHmac } from 'node:crypto';
import { generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { TEST_AUDIENCE } from '../test-support/test-identity.ts';
import { startTravelApi } from '../test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity({ env: { TRAVEL_API_JWKS_COOLDOWN_SECONDS: '3600' } });

async function profileStatus(token: string | undefined): Promise<{ status: number; code?: string }> {
  const response = await signedFetch(stack.api.baseUrl, { path: '/v1/profile', ...(token ? { token } : {}) });
  if (response.ok) return { status: response.status };
  return { status: response.status, code: ErrorEnvelopeSchema.parse(await response.json()).error.code };
}

function base64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

describe('bearer token verification', () => {
  it('accepts an RS256 token from the identity platform for this audience', async () => {
    expect(await profileStatus(await stack.identity.token())).toEqual({ status: 200 });
  });

  it('rejects a missing token with 401 UNAUTHORIZED', async () => {
    expect(await profileStatus(undefined)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('rejects an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: stack.identity.issuer, aud: TEST_AUDIENCE, sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000001', iat: now, exp: now + 300 })}.`;
    expect(await profileStatus(token)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('rejects an HS256 token keyed with the public key (algorithm confusion)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const signingInput = `${base64url({ alg: 'HS256', typ: 'JWT', kid: 'test-key-1' })}.${base64url({ iss: stack.identity.issuer, aud: TEST_AUDIENCE, sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000001', iat: now, exp: now + 300 })}`;
    const signature = createHmac('sha256', JSON.stringify(stack.identity.publicJwk))
      .update(signingInput)
      .digest('base64url');
    expect(await profileStatus(`${signingInput}.${signature}`)).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('rejects a token from another issuer', async () => {
    expect(await profileStatus(await stack.identity.token({ iss: 'https://evil.example' }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('rejects a token for another audience', async () => {
    expect(await profileStatus(await stack.identity.token({ aud: 'urn:other:api' }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('rejects an expired token beyond the 5 s clock tolerance, accepts one inside it', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await profileStatus(await stack.identity.token({ iat: now - 600, exp: now - 30 }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(await profileStatus(await stack.identity.token({ iat: now - 600, exp: now - 2 }))).toEqual({
      status: 200,
    });
  });

  it('rejects a token issued in the future beyond the clock tolerance, accepts one inside it', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await profileStatus(await stack.identity.token({ iat: now + 86_400, exp: now + 90_000 }))).toEqual(
      {
        status: 401,
        code: 'UNAUTHORIZED',
      },
    );
    expect(await profileStatus(await stack.identity.token({ iat: now + 2, exp: now + 300 }))).toEqual({
      status: 200,
    });
  });

  it('rejects a token whose subject is not a traveler id', async () => {
    expect(await profileStatus(await stack.identity.token({ sub: 'not-a-uuid' }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('rejects a token signed by an unknown key, refetching the key set at most once per cooldown', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const before = stack.identity.jwksFetches();
    for (let i = 0; i < 3; i++) {
      const token = await stack.identity.token({}, { kid: `rotated-key-${i}`, key: privateKey });
      expect(await profileStatus(token)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
    expect(stack.identity.jwksFetches() - before).toBeLessThanOrEqual(1);
  });

  it('does not need a bearer token for GET /v1/app/update-check', async () => {
    expect((await signedFetch(stack.api.baseUrl, { path: '/v1/app/update-check' })).status).toBe(200);
  });

  it('checks the consumer signature before the bearer token', async () => {
    const response = await fetch(`${stack.api.baseUrl}/v1/profile`, {
      headers: { authorization: `Bearer ${await stack.identity.token()}` },
    });
    expect(response.status).toBe(401);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('CONSUMER_AUTH_REQUIRED');
  });
});

describe('guest session tokens', () => {
  it('are issued by a signed POST /v1/guest-sessions without a bearer token', async () => {
    const response = await signedFetch(stack.api.baseUrl, { method: 'POST', path: '/v1/guest-sessions' });
    expect(response.status).toBe(201);
    const session = (await response.json()) as { guestToken: string; expiresAt: string };
    expect(session.guestToken).toMatch(/^wgs_[\w-]{43}$/);
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(7000 * 1000);
  });

  it('are not accepted where a traveler token is required', async () => {
    const response = await signedFetch(stack.api.baseUrl, { method: 'POST', path: '/v1/guest-sessions' });
    const { guestToken } = (await response.json()) as { guestToken: string };
    expect(await profileStatus(guestToken)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('an unreachable identity platform', () => {
  it('answers 503 SERVICE_UNAVAILABLE RETRY_LATER, since the token can be neither trusted nor refused', async () => {
    const offline = await startTravelApi({
      IDENTITY_ISSUER: 'http://127.0.0.1:9',
      TRAVEL_API_AUDIENCE: TEST_AUDIENCE,
    });
    try {
      const response = await signedFetch(offline.baseUrl, {
        path: '/v1/profile',
        token: await stack.identity.token(),
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        error: { code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' },
      });
    } finally {
      await offline.close();
    }
  });
});
