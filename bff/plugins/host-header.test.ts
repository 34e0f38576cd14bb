import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { rawHttp } from '../../upstream/travel-api/test-support/raw-http.ts';
import { ScriptedTravelApi } from '../test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET, type TestBff } from '../test-support/start-test-bff.ts';

let travelApi: ScriptedTravelApi;
let bff: TestBff;
beforeAll(async () => {
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  bff = await startTestBff({ TRAVEL_API_URL: travelApi.url });
});
afterAll(async () => {
  await bff.close();
  await travelApi.close();
});

describe('a request without a Host header', () => {
  it.each(['/api/session', '/healthz', '/api/app/update-check'])(
    'is answered 400 in the envelope on %s, and the connection closed',
    async (path) => {
      const answer = await rawHttp(bff.url, `GET ${path} HTTP/1.1\r\nAccept: application/json\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(answer.headers).toMatch(/content-type: application\/json/i);
      expect(answer.headers).toMatch(/connection: close/i);
      expect(answer.headers).toMatch(/x-request-id: /i);
      const { error } = ErrorEnvelopeSchema.parse(JSON.parse(answer.body));
      expect(error).toMatchObject({ code: 'BAD_REQUEST', recoveryAction: 'FIX_INPUT' });
      expect(error.message).toMatch(/Host header/);
    },
  );

  it('is still served over HTTP/1.0, which has no Host header to require', async () => {
    const answer = await rawHttp(bff.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });
});
