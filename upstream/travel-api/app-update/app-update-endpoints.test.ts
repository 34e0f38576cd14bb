import { describe, expect, it } from 'vitest';
import { UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { TEST_ADMIN_TOKEN } from '../test-support/start-travel-api.ts';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
const stack = travelApiWithIdentity({
  env: { TRAVEL_API_LATEST_APP_VERSION: '1.2.0', TRAVEL_API_LOG_LEVEL: 'error' },
});

async function check(sub?: string, token?: string) {
  const response = await signedFetch(stack.api.baseUrl, {
    path: '/v1/app/update-check?currentVersion=1.2.0',
    ...(sub === undefined ? {} : { token: await stack.identity.token({ sub }) }),
    ...(token === undefined ? {} : { token }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('a version announced to one traveler first (PUT /admin/travelers/:travelerId/app-release)', () => {
  it('is reported to that traveler’s update checks only, and taken back', async () => {
    const announced = await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${SAM}/app-release`, {
      latestVersion: '1.3.0',
      releaseNotes: 'Trips load faster',
    });
    expect(announced.status).toBe(200);

    const sam = await check(SAM);
    expect(UpdateCheckSchema.parse(sam.body)).toMatchObject({
      latestVersion: '1.3.0',
      updateAvailable: true,
      releaseNotes: 'Trips load faster',
    });
    for (const someoneElse of [await check(ALEX), await check()]) {
      expect(UpdateCheckSchema.parse(someoneElse.body)).toMatchObject({
        latestVersion: '1.2.0',
        updateAvailable: false,
      });
    }

    await adminFetch(stack.api.baseUrl, 'DELETE', `/admin/travelers/${SAM}/app-release`);
    expect(UpdateCheckSchema.parse((await check(SAM)).body).updateAvailable).toBe(false);
  });

  it('gives way to a newer release of all, and refuses a token that is not valid', async () => {
    await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${SAM}/app-release`, {
      latestVersion: '1.4.0',
    });
    await adminFetch(stack.api.baseUrl, 'PUT', '/admin/app-release', { latestVersion: '1.5.0' });
    expect(UpdateCheckSchema.parse((await check(SAM)).body).latestVersion).toBe('1.5.0');
    await adminFetch(stack.api.baseUrl, 'PUT', '/admin/app-release', { latestVersion: '1.2.0' });
    await adminFetch(stack.api.baseUrl, 'DELETE', `/admin/travelers/${SAM}/app-release`);

    const forged = await check(undefined, 'not.a.jwt');
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });
});

describe('PUT /admin/app-release', () => {
  it('announces a new version through the admin API', async () => {
    await fetch(`${stack.api.baseUrl}/admin/app-release`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ latestVersion: '2.1.0', minimumVersion: '1.5.0', releaseNotes: 'Faster fares' }),
    });
    const check = UpdateCheckSchema.parse(
      await (
        await signedFetch(stack.api.baseUrl, { path: '/v1/app/update-check?currentVersion=1.4.0' })
      ).json(),
    );
    expect(check).toMatchObject({
      latestVersion: '2.1.0',
      updateAvailable: true,
      updateRequired: true,
      releaseNotes: 'Faster fares',
    });
  });
});
