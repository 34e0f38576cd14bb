import * as crypto from 'node:crypto';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { signRequest } from './sign-request.ts';
import published from './signature-vectors.json' with { type: 'json' };
import { verifySignature } from './verify-signature.ts';
import type { ConsumerSecrets, VerifySignatureInput } from './verify-signature.ts';

vi.mock('node:crypto', { spy: true });

const CURRENT = 'current-consumer-secret-00000000001';
const PREVIOUS = 'previous-consumer-secret-0000000001';
const TIMESTAMP = '1767225600';
const SIGNED_AT = new Date(Number(TIMESTAMP) * 1000);
const HOUR_MS = 60 * 60 * 1000;
const body = new TextEncoder().encode('{"itinerary":[{"origin":"LHR","destination":"JFK"}]}');

function signedRequest(
  overrides: Partial<VerifySignatureInput> = {},
  signingSecret = CURRENT,
  timestamp = TIMESTAMP,
): VerifySignatureInput {
  const request = { method: 'POST', path: '/v1/flights/search', body, ...overrides };
  return {
    headers: {
      consumer: 'wayfare-web',
      timestamp,
      signature: signRequest({ ...request, timestamp, secret: signingSecret }),
    },
    secrets: { current: CURRENT },
    now: SIGNED_AT,
    ...request,
  };
}

function atOffset(seconds: number): Date {
  return new Date(SIGNED_AT.getTime() + seconds * 1000);
}

describe('verifySignature against the published vectors', () => {
  it.each(published.vectors)('accepts "$name" signed with the current secret', (vector) => {
    const result = verifySignature({
      headers: { consumer: 'wayfare-web', timestamp: vector.timestamp, signature: vector.signature },
      method: vector.method,
      path: vector.path,
      body: Buffer.from(vector.bodyHex, 'hex'),
      secrets: { current: vector.secret },
      now: new Date(Number(vector.timestamp) * 1000),
    });
    expect(result).toEqual({ ok: true, usedPrevious: false });
  });

  it.each(published.vectors)('accepts "$name" signed with a previous secret inside its grace', (vector) => {
    const result = verifySignature({
      headers: { consumer: 'wayfare-web', timestamp: vector.timestamp, signature: vector.signature },
      method: vector.method,
      path: vector.path,
      body: Buffer.from(vector.bodyHex, 'hex'),
      secrets: {
        current: CURRENT,
        previous: { secret: vector.secret, rotatedAt: new Date(Number(vector.timestamp) * 1000 - HOUR_MS) },
      },
      now: new Date(Number(vector.timestamp) * 1000),
    });
    expect(result).toEqual({ ok: true, usedPrevious: true });
  });

  it.each(published.vectors)('rejects "$name" when checked against another secret', (vector) => {
    const result = verifySignature({
      headers: { consumer: 'wayfare-web', timestamp: vector.timestamp, signature: vector.signature },
      method: vector.method,
      path: vector.path,
      body: Buffer.from(vector.bodyHex, 'hex'),
      secrets: { current: `${vector.secret}-other` },
      now: new Date(Number(vector.timestamp) * 1000),
    });
    expect(result).toEqual({ ok: false });
  });
});

describe('the replay window', () => {
  it.each([
    ['300 s old', 300, true],
    ['301 s old', 301, false],
    ['300 s in the future', -300, true],
    ['301 s in the future', -301, false],
  ])('treats a timestamp %s as %s', (_label, ageSeconds, accepted) => {
    expect(verifySignature({ ...signedRequest(), now: atOffset(ageSeconds) }).ok).toBe(accepted);
  });

  it('counts whole seconds of the server clock, as the signer does', () => {
    expect(verifySignature({ ...signedRequest(), now: atOffset(300.999) }).ok).toBe(true);
    expect(verifySignature({ ...signedRequest(), now: atOffset(301) }).ok).toBe(false);
  });

  it('honours a configured skew', () => {
    expect(verifySignature({ ...signedRequest(), now: atOffset(30), skewSeconds: 30 }).ok).toBe(true);
    expect(verifySignature({ ...signedRequest(), now: atOffset(31), skewSeconds: 30 }).ok).toBe(false);
  });

  it('rejects a correctly signed but stale request with the current secret', () => {
    expect(verifySignature({ ...signedRequest(), now: atOffset(3600) })).toEqual({ ok: false });
  });
});

describe('secret rotation', () => {
  const rotatedAt = SIGNED_AT;
  const secrets: ConsumerSecrets = { current: CURRENT, previous: { secret: PREVIOUS, rotatedAt } };

  function signedWithPreviousAt(sinceRotationMs: number): VerifySignatureInput {
    const now = new Date(rotatedAt.getTime() + sinceRotationMs);
    const timestamp = String(Math.floor(now.getTime() / 1000));
    return { ...signedRequest({}, PREVIOUS, timestamp), secrets, now };
  }

  it('accepts the previous secret 23 h 59 min after the rotation and says so', () => {
    expect(verifySignature(signedWithPreviousAt(24 * HOUR_MS - 60_000))).toEqual({
      ok: true,
      usedPrevious: true,
    });
  });

  it('rejects the previous secret 24 h after the rotation', () => {
    expect(verifySignature(signedWithPreviousAt(24 * HOUR_MS))).toEqual({ ok: false });
  });

  it('keeps accepting the current secret after the grace ends', () => {
    const now = new Date(rotatedAt.getTime() + 48 * HOUR_MS);
    const timestamp = String(now.getTime() / 1000);
    expect(verifySignature({ ...signedRequest({}, CURRENT, timestamp), secrets, now })).toEqual({
      ok: true,
      usedPrevious: false,
    });
  });

  it('prefers the current secret when a request verifies with it', () => {
    expect(verifySignature({ ...signedRequest(), secrets })).toEqual({ ok: true, usedPrevious: false });
  });
});

describe('unknown consumers', () => {
  beforeEach(() => {
    vi.mocked(crypto.createHmac).mockClear();
  });

  it('answers an unknown consumer exactly as a bad signature', () => {
    const unknown = verifySignature({ ...signedRequest(), secrets: undefined });
    const forged = verifySignature({ ...signedRequest({}, 'not-the-secret') });
    expect(unknown).toEqual({ ok: false });
    expect(unknown).toStrictEqual(forged);
  });

  it('does the same HMAC work for an unknown consumer as for a known one', () => {
    verifySignature({ ...signedRequest(), secrets: undefined });
    const unknownWork = vi.mocked(crypto.createHmac).mock.calls.length;
    vi.mocked(crypto.createHmac).mockClear();
    verifySignature({ ...signedRequest({}, 'not-the-secret') });
    const knownWork = vi.mocked(crypto.createHmac).mock.calls.length;
    expect(unknownWork).toBeGreaterThan(0);
    expect(unknownWork).toBe(knownWork);
  });

  it('rejects a request signed with the fixed secret used for unknown consumers', () => {
    const request = signedRequest({}, 'unknown-consumer-0000000000000000');
    expect(verifySignature({ ...request, secrets: undefined })).toEqual({ ok: false });
    expect(verifySignature({ ...request, secrets: { current: CURRENT } })).toEqual({ ok: false });
  });
});

describe('malformed headers', () => {
  const valid = signedRequest();
  const signature = valid.headers.signature ?? '';

  it.each([
    ['no consumer', { consumer: undefined }],
    ['an empty consumer', { consumer: '' }],
    ['no timestamp', { timestamp: undefined }],
    ['no signature', { signature: undefined }],
    ['a timestamp with a fraction', { timestamp: `${TIMESTAMP}.0` }],
    ['a negative timestamp', { timestamp: `-${TIMESTAMP}` }],
    ['a timestamp in exponent form', { timestamp: '1.7672256e9' }],
    ['a timestamp with spaces', { timestamp: ` ${TIMESTAMP}` }],
    ['a timestamp of 13 digits', { timestamp: '1767225600000' }],
    ['an ISO date as timestamp', { timestamp: '2026-01-01T00:00:00Z' }],
    ['an uppercase hex signature', { signature: signature.toUpperCase() }],
    ['a truncated signature', { signature: signature.slice(0, 63) }],
    ['a prefixed signature', { signature: `sha256=${signature}` }],
    ['a base64 signature', { signature: Buffer.from(signature, 'hex').toString('base64') }],
    ['a non-hex signature', { signature: `${signature.slice(0, 63)}g` }],
  ])('rejects %s', (_label, headers) => {
    expect(verifySignature({ ...valid, headers: { ...valid.headers, ...headers } })).toEqual({ ok: false });
  });

  it('rejects header values that are not strings at run time', () => {
    const headers = { ...valid.headers, timestamp: [TIMESTAMP] as unknown as string };
    expect(verifySignature({ ...valid, headers })).toEqual({ ok: false });
  });

  it('accepts the untouched request the malformed cases derive from', () => {
    expect(verifySignature(valid)).toEqual({ ok: true, usedPrevious: false });
  });
});

describe('any single change to a signed request fails verification', () => {
  interface SigningInput {
    method: string;
    path: string;
    timestamp: string;
    body: Uint8Array;
    secret: string;
  }
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const segment = (maxLength: number) =>
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), minLength: 1, maxLength });
  const signingInput: fc.Arbitrary<SigningInput> = fc.record({
    method: fc.constantFrom(...methods),
    path: fc
      .array(segment(12), { minLength: 1, maxLength: 5 })
      .map((segments) => `/v1/${segments.join('/')}`),
    timestamp: fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }).map(String),
    body: fc.uint8Array({ minLength: 1, maxLength: 256 }),
    secret: fc.string({ minLength: 1, maxLength: 64 }),
  });

  function verifies(signed: SigningInput, presented: SigningInput): boolean {
    return verifySignature({
      headers: { consumer: 'wayfare-web', timestamp: presented.timestamp, signature: signRequest(signed) },
      method: presented.method,
      path: presented.path,
      body: presented.body,
      secrets: { current: presented.secret },
      now: new Date(Number(signed.timestamp) * 1000),
    }).ok;
  }

  function assertChangeFails(change: (request: SigningInput) => fc.Arbitrary<SigningInput>): void {
    const pairs = signingInput.chain((request) => change(request).map((changed) => ({ request, changed })));
    fc.assert(
      fc.property(pairs, ({ request, changed }) => {
        expect(verifies(request, request)).toBe(true);
        expect(verifies(request, changed)).toBe(false);
      }),
      { numRuns: 150 },
    );
  }

  it('changing the method', () => {
    assertChangeFails((request) =>
      fc
        .constantFrom(...methods.filter((method) => method !== request.method))
        .map((method) => ({ ...request, method })),
    );
  });

  it('changing the path', () => {
    assertChangeFails((request) =>
      fc
        .oneof(
          segment(8).map((extra) => `${request.path}/${extra}`),
          fc.constant(request.path.slice(0, -1)),
          fc.constant(request.path.toUpperCase()),
        )
        .map((path) => ({ ...request, path })),
    );
  });

  it('changing the timestamp text, even to another spelling of the same second', () => {
    assertChangeFails((request) =>
      fc
        .oneof(
          fc
            .integer({ min: -300, max: 300 })
            .filter((delta) => delta !== 0)
            .map((delta) => String(Number(request.timestamp) + delta)),
          fc.constant(`0${request.timestamp}`),
        )
        .map((timestamp) => ({ ...request, timestamp })),
    );
  });

  it('changing one body byte', () => {
    assertChangeFails((request) =>
      fc
        .record({ index: fc.nat({ max: request.body.length - 1 }), flip: fc.integer({ min: 1, max: 255 }) })
        .map(({ index, flip }) => {
          const body = Uint8Array.from(request.body);
          body[index] = (body[index] ?? 0) ^ flip;
          return { ...request, body };
        }),
    );
  });

  it('changing the secret', () => {
    assertChangeFails((request) =>
      fc
        .string({ minLength: 1, maxLength: 64 })
        .filter((secret) => secret !== request.secret)
        .map((secret) => ({ ...request, secret })),
    );
  });
});
