import { beforeAll, describe, expect, it } from 'vitest';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import { envelopeOf } from '../test-support/envelope-of.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity();
let token: string;

beforeAll(async () => {
  token = await stack.identity.token();
});

describe('profile', () => {
  it('returns the traveler profile with name and email from the token', async () => {
    const profile = ProfileSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/profile', token })).json(),
    );
    expect(profile).toMatchObject({
      travelerId: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
      email: 'alex@wayfare.example',
      name: 'Alex Morgan',
      bookingProfile: false,
    });
  });

  it('PATCH changes the given fields, keeps the others and persists', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      method: 'PATCH',
      path: '/v1/profile',
      json: { homeAirport: 'zrh', currency: 'CHF', bookingProfile: true },
      token,
    });
    expect(response.status).toBe(200);
    const again = ProfileSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/profile', token })).json(),
    );
    expect(again).toMatchObject({
      homeAirport: 'ZRH',
      currency: 'CHF',
      bookingProfile: true,
      name: 'Alex Morgan',
    });
  });

  it('PATCH rejects an empty change, an unknown airport and an unknown currency', async () => {
    const patch = (json: unknown): Promise<Response> =>
      signedFetch(stack.api.baseUrl, { method: 'PATCH', path: '/v1/profile', json, token });
    expect((await envelopeOf(await patch({}))).status).toBe(422);
    expect((await envelopeOf(await patch({ homeAirport: 'QQQ' }))).error.details[0]).toMatchObject({
      field: 'homeAirport',
      code: 'unknown_airport',
    });
    expect((await envelopeOf(await patch({ currency: 'ZZZ' }))).error.details[0]).toMatchObject({
      field: 'currency',
      code: 'enum',
    });
  });
});
