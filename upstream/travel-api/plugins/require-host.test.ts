import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { rawHttp } from '../test-support/raw-http.ts';
import { startTravelApi, type RunningTravelApi } from '../test-support/start-travel-api.ts';

let api: RunningTravelApi;
beforeAll(async () => {
  api = await startTravelApi();
});
afterAll(async () => {
  await api.close();
});

describe('a request without a Host header', () => {
  it('is answered 400 in the envelope, naming the missing header, and the connection closed', async () => {
    const answer = await rawHttp(api.baseUrl, 'GET /v1/app/update-check HTTP/1.1\r\nAccept: */*\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(answer.headers).toMatch(/connection: close/i);
    const { error } = ErrorEnvelopeSchema.parse(JSON.parse(answer.body));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', recoveryAction: 'FIX_INPUT' });
    expect(error.message).toMatch(/Host header/);
    expect(error.details.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'host', code: 'missing' },
    ]);
  });

  it('is still served over HTTP/1.0, which has no Host header to require', async () => {
    const answer = await rawHttp(api.baseUrl, 'GET /v1/app/update-check HTTP/1.0\r\n\r\n');
    // Unsigned, so the consumer check answers: the request got past the host check to the service.
    expect(answer.status).toBe(401);
    expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error.code).toBe('CONSUMER_AUTH_REQUIRED');
  });
});
