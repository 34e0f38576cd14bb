import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import {
  BOOKING_BODY,
  BOOKING_TEXT_FIELDS,
  PROFILE_PATCH,
  PROFILE_TEXT_FIELDS,
  expectRefusedField,
  refusedInputs,
  withField,
} from './test-support/refused-text.ts';
import { signedFetch } from './test-support/signed-fetch.ts';
import { travelApiWithIdentity } from './test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity({ env: { TRAVEL_API_RATE_LIMIT_MAX: '100000' } });
let token: string;
beforeAll(async () => {
  token = await stack.identity.token();
});

describe('free text with control or bidi override characters, at the travel API', () => {
  it('refuses a booking naming its traveler with one, per field, and keeps no booking', async () => {
    const before: unknown = await (
      await signedFetch(stack.api.baseUrl, { path: '/v1/bookings', token })
    ).json();
    for (const { field, value } of refusedInputs(BOOKING_TEXT_FIELDS, 30)) {
      const response = await signedFetch(stack.api.baseUrl, {
        path: '/v1/bookings',
        json: withField(BOOKING_BODY, field, value),
        headers: { 'idempotency-key': `free-text-${randomUUID()}` },
        token,
      });
      await expectRefusedField(response, field, value);
    }
    const after: unknown = await (
      await signedFetch(stack.api.baseUrl, { path: '/v1/bookings', token })
    ).json();
    expect(after).toEqual(before);
  });

  it('refuses a profile change with one, per field, and leaves the profile as it was', async () => {
    const before = ProfileSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/profile', token })).json(),
    );
    for (const { field, value } of refusedInputs(PROFILE_TEXT_FIELDS, 30)) {
      const response = await signedFetch(stack.api.baseUrl, {
        method: 'PATCH',
        path: '/v1/profile',
        json: withField(PROFILE_PATCH, field, value),
        token,
      });
      await expectRefusedField(response, field, value);
    }
    const after = ProfileSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/profile', token })).json(),
    );
    expect(after).toEqual(before);
  });

  it('still takes names in any script, with right-to-left marks', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      method: 'PATCH',
      path: '/v1/profile',
      json: { name: 'Zoë Ångström\u200F' },
      token,
    });
    expect(response.status).toBe(200);
    expect(ProfileSchema.parse(await response.json()).name).toBe('Zoë Ångström\u200F');
  });
});
