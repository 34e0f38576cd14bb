import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { MALFORMED_REQUESTS, rawHttp } from '../test-support/raw-http.ts';
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
    expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error.code).toBe('VALIDATION_ERROR');
    expect(answer.body).not.toMatch(/aaaa|broken|HELLO|statusCode/);
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
