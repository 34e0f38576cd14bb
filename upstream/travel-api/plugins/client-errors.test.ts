import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { MALFORMED_REQUESTS, OVERSIZED_REQUESTS, rawHttp } from '../test-support/raw-http.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { startTravelApi, type RunningTravelApi } from '../test-support/start-travel-api.ts';

let api: RunningTravelApi;
beforeAll(async () => {
  api = await startTravelApi();
});
afterAll(async () => {
  await api.close();
});

describe('requests refused before any route sees them', () => {
  it.each([
    ['headers over the parser’s limit', MALFORMED_REQUESTS.oversizedHeaders('/v1/profile'), 431],
    ['a malformed request line', MALFORMED_REQUESTS.brokenRequestLine, 400],
    ['bytes that are not HTTP', MALFORMED_REQUESTS.notHttp, 400],
  ])('answers %s with the envelope, echoing nothing', async (_label, request, status) => {
    const answer = await rawHttp(api.baseUrl, request);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error.recoveryAction).toBe('FIX_INPUT');
    expect(answer.body).not.toMatch(/aaaa|broken|HELLO|statusCode/);
  });

  it('never pairs VALIDATION_ERROR with a status other than 422: a 20 KB header or query string is 431 of its own code', async () => {
    // The spec, Codes and statuses: "VALIDATION_ERROR | 422 | Body or parameters failed validation; details
    // has one entry per failing field; recoveryAction FIX_INPUT"
    for (const request of OVERSIZED_REQUESTS('/v1/profile')) {
      const answer = await rawHttp(api.baseUrl, request);
      expect(answer.status).toBe(431);
      expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error).toMatchObject({
        code: 'REQUEST_HEADERS_TOO_LARGE',
        details: [],
        recoveryAction: 'FIX_INPUT',
      });
    }
    for (const request of [MALFORMED_REQUESTS.brokenRequestLine, MALFORMED_REQUESTS.notHttp]) {
      const answer = await rawHttp(api.baseUrl, request);
      expect(answer.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error.code).toBe('BAD_REQUEST');
    }
  });

  it('answers a path parameter over the length limit with the envelope, not echoing the path', async () => {
    const long = 'x'.repeat(5_000);
    const response = await signedFetch(api.baseUrl, { path: `/v1/trips/${long}` });
    expect(response.status).toBe(422);
    const body = await response.text();
    expect(ErrorEnvelopeSchema.parse(JSON.parse(body)).error.details[0]).toMatchObject({ field: 'url' });
    expect(body).not.toContain('xxxx');
  });
});
