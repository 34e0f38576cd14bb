import { beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf } from '../test-support/envelope-of.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity();
let token: string;

beforeAll(async () => {
  token = await stack.identity.token();
});

describe('errors are envelopes', () => {
  it('answers malformed JSON and a wrong content type with VALIDATION_ERROR details', async () => {
    const malformed = await envelopeOf(
      await signedFetch(stack.api.baseUrl, {
        path: '/v1/flights/search',
        body: '{"itinerary":',
        token,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(malformed).toMatchObject({
      status: 422,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'body', code: 'json_invalid' }] },
    });
    const wrongType = await envelopeOf(
      await signedFetch(stack.api.baseUrl, {
        path: '/v1/flights/search',
        body: 'itinerary=LHR',
        token,
        headers: { 'content-type': 'text/plain' },
      }),
    );
    expect(wrongType).toMatchObject({
      status: 422,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'content-type' }] },
    });
  });

  it('answers unknown routes with 404 RESOURCE_NOT_FOUND', async () => {
    expect((await envelopeOf(await fetch(`${stack.api.baseUrl}/nowhere`))).error.code).toBe(
      'RESOURCE_NOT_FOUND',
    );
    expect(
      (await envelopeOf(await signedFetch(stack.api.baseUrl, { path: '/v1/nowhere', token }))).status,
    ).toBe(404);
  });
});
