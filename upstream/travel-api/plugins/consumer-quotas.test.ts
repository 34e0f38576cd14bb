import { describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { addDays } from '../time-zones.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity({ env: { TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '40' } });
const inDays = (days: number): string => addDays(new Date().toISOString().slice(0, 10), days);

describe('rate limit', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED with retryAfterSeconds and Retry-After past the search quota', async () => {
    const other = await stack.identity.token({ sub: '5f1c2a7e-0b1d-4c5e-9a01-100000000008' });
    let last: Response | undefined;
    for (let i = 0; i < 41; i++) {
      last = await signedFetch(stack.api.baseUrl, {
        path: '/v1/flights/search',
        json: {
          itinerary: [{ origin: 'MAD', destination: 'BCN', date: inDays(5) }],
          passengers: { adults: 1 },
          cabinClass: 'economy',
        },
        token: other,
      });
      if (last.status === 429) break;
      await last.arrayBuffer();
    }
    expect(last?.status).toBe(429);
    const retryAfter = Number(last?.headers.get('retry-after'));
    const { error } = ErrorEnvelopeSchema.parse(await last?.json());
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', recoveryAction: 'RETRY_LATER' });
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfter).toBe(error.retryAfterSeconds);
  });
});
