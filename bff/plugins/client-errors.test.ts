import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import {
  MALFORMED_REQUESTS,
  OVERSIZED_REQUESTS,
  rawHttp,
} from '../../upstream/travel-api/test-support/raw-http.ts';
import { startGatewayStack, type GatewayStack } from '../test-support/gateway-stack.ts';

let stack: GatewayStack;
beforeAll(async () => {
  stack = await startGatewayStack();
}, 30_000);
afterAll(async () => {
  await stack.close();
});

describe('requests refused before any route sees them', () => {
  it.each([
    ['headers over the parser’s limit', MALFORMED_REQUESTS.oversizedHeaders('/api/session'), 431],
    ['a malformed request line', MALFORMED_REQUESTS.brokenRequestLine, 400],
    ['bytes that are not HTTP', MALFORMED_REQUESTS.notHttp, 400],
  ])('answers %s with the envelope, echoing nothing', async (_label, request, status) => {
    const answer = await rawHttp(stack.bffUrl, request);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error.recoveryAction).toBe('FIX_INPUT');
    expect(answer.body).not.toMatch(/aaaa|broken|HELLO|statusCode/);
  });

  it('answers a 20 KB header or query string with 431 and a code of its own, never VALIDATION_ERROR (a 422 code)', async () => {
    // The spec, Codes and statuses: "VALIDATION_ERROR | 422 | Body or parameters failed validation; details
    // has one entry per failing field; recoveryAction FIX_INPUT"
    for (const request of OVERSIZED_REQUESTS('/api/session')) {
      const answer = await rawHttp(stack.bffUrl, request);
      expect(answer.status).toBe(431);
      expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error).toMatchObject({
        code: 'REQUEST_HEADERS_TOO_LARGE',
        details: [],
        recoveryAction: 'FIX_INPUT',
      });
    }
  });

  it('answers a path parameter over the length limit with an envelope that does not echo the path', async () => {
    const long = 'x'.repeat(5_000);
    for (const path of [`/api/trips/${long}`, `/api/notifications/${long}/read`, `/auth/${long}`]) {
      const response = await fetch(`${stack.bffUrl}${path}`, {
        method: path.endsWith('/read') ? 'POST' : 'GET',
        headers: { 'x-requested-with': 'wayfare' },
      });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      const body = await response.text();
      ErrorEnvelopeSchema.parse(JSON.parse(body));
      expect(body).not.toContain('xxxx');
    }
  });
});
