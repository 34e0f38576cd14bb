import { afterEach, describe, expect, it, vi } from 'vitest';

import { canonicalString, hashBody, signRequest, signedHeaders } from './sign-request.ts';
import published from './signature-vectors.json' with { type: 'json' };

const EMPTY_BODY_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('signRequest against the published vectors', () => {
  it('publishes a vector for each case the spec calls out', () => {
    expect(published.vectors.map((vector) => vector.name)).toEqual(
      expect.arrayContaining([
        'GET with an empty body',
        'POST with a JSON body',
        'POST with non-ASCII UTF-8 body bytes',
        'GET whose query string is not signed',
        'lowercase method is signed uppercase',
      ]),
    );
  });

  describe.each(published.vectors)('$name', (vector) => {
    const bodyBytes = Buffer.from(vector.bodyHex, 'hex');

    it('stores body text whose UTF-8 bytes are bodyHex', () => {
      expect(Buffer.from(vector.body, 'utf8').equals(bodyBytes)).toBe(true);
    });

    it('hashes the body bytes to bodyHash, given as text or as bytes', () => {
      expect(hashBody(vector.body)).toBe(vector.bodyHash);
      expect(hashBody(new Uint8Array(bodyBytes))).toBe(vector.bodyHash);
    });

    it('builds the canonical string', () => {
      expect(canonicalString({ ...vector, body: bodyBytes })).toBe(vector.canonicalString);
    });

    it('produces the published signature', () => {
      expect(signRequest({ ...vector, body: bodyBytes })).toBe(vector.signature);
      expect(signRequest({ ...vector, body: vector.body })).toBe(vector.signature);
    });

    it('produces the published signature from the body hash made once for several signatures', () => {
      expect(signRequest({ ...vector, body: bodyBytes, bodyHash: hashBody(bodyBytes) })).toBe(
        vector.signature,
      );
    });
  });
});

describe('hashBody', () => {
  it('hashes a missing or empty body as the empty byte string, never as "null" or "{}"', () => {
    expect(hashBody(undefined)).toBe(EMPTY_BODY_HASH);
    expect(hashBody('')).toBe(EMPTY_BODY_HASH);
    expect(hashBody(new Uint8Array())).toBe(EMPTY_BODY_HASH);
    expect(hashBody('null')).not.toBe(EMPTY_BODY_HASH);
    expect(hashBody('{}')).not.toBe(EMPTY_BODY_HASH);
  });

  it('returns 64 lowercase hex characters', () => {
    expect(hashBody('{"a":1}')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonicalString', () => {
  const request = { method: 'get', path: '/v1/bookings', timestamp: '1767225600', body: undefined };

  it('signs neither the query string nor a fragment, so one signature covers every query', () => {
    const bare = canonicalString(request);
    expect(canonicalString({ ...request, path: '/v1/bookings?status=confirmed&limit=5' })).toBe(bare);
    expect(canonicalString({ ...request, path: '/v1/bookings#top' })).toBe(bare);
    expect(canonicalString({ ...request, path: '/v1/bookings?' })).toBe(bare);
  });

  it('keeps the timestamp text verbatim rather than reformatting the number', () => {
    expect(canonicalString({ ...request, timestamp: '01767225600' }).split('\n')[2]).toBe('01767225600');
  });

  it('joins the four fields with LF only', () => {
    expect(canonicalString(request)).toBe(`GET\n/v1/bookings\n1767225600\n${EMPTY_BODY_HASH}`);
  });
});

describe('signedHeaders', () => {
  const input = {
    consumer: 'wayfare-web',
    secret: 'dev-consumer-secret-change-me-0001',
    method: 'POST',
    path: '/v1/flights/search?trace=1',
    body: '{"passengers":{"adults":1}}',
  };

  afterEach(() => {
    vi.useRealTimers();
  });

  it('stamps whole Unix seconds of the given instant and signs with that exact text', () => {
    const headers = signedHeaders({ ...input, now: new Date('2026-01-01T00:00:00.999Z') });
    expect(headers['Service-Consumer']).toBe('wayfare-web');
    expect(headers['Service-Timestamp']).toBe('1767225600');
    expect(headers['Service-Signature']).toBe(
      signRequest({ ...input, timestamp: '1767225600', path: '/v1/flights/search' }),
    );
  });

  it('accepts the instant as milliseconds since the epoch', () => {
    expect(signedHeaders({ ...input, now: 1_767_225_661_500 })['Service-Timestamp']).toBe('1767225661');
  });

  it('uses the current time when no instant is given', () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T12:00:00.250Z') });
    expect(signedHeaders(input)['Service-Timestamp']).toBe(String(Date.parse('2026-11-22T12:00:00Z') / 1000));
  });
});
