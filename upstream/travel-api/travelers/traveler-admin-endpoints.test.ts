import { describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { notifyTraveler } from '../notifications/test-support/open-notification-stream.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';
import { TravelerStateSchema, type TravelerState } from './traveler-admin-endpoints.ts';

const stack = travelApiWithIdentity();

async function stateOf(sub: string): Promise<TravelerState> {
  const response = await adminFetch(stack.api.baseUrl, 'GET', `/admin/travelers/${sub}`);
  expect(response.status).toBe(200);
  return TravelerStateSchema.parse(await response.json());
}

const call = (token: string, path: string, json?: unknown, method?: string) =>
  signedFetch(stack.api.baseUrl, { path, token, json, ...(method ? { method } : {}) });

describe('/admin/travelers/:travelerId', () => {
  it('PUT creates a traveler as on first sight; GET reads every row the service holds of them', async () => {
    const sub = crypto.randomUUID();
    const missing = await adminFetch(stack.api.baseUrl, 'GET', `/admin/travelers/${sub}`);
    expect(missing.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(await missing.json()).error.code).toBe('RESOURCE_NOT_FOUND');

    const created = await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${sub}`, {
      email: 'new@wayfare.test',
      name: 'New Traveler',
    });
    expect(created.status).toBe(200);
    const state = TravelerStateSchema.parse(await created.json());
    expect(state.tables.travelers).toEqual([
      expect.objectContaining({ id: sub, email: 'new@wayfare.test', name: 'New Traveler' }),
    ]);
    expect(state.tables.trips?.length).toBeGreaterThanOrEqual(6);
    expect(state.tables.segments?.length).toBeGreaterThan(state.tables.trips?.length ?? 0);
    expect(state.tables.bookings?.length).toBeGreaterThan(0);
    expect(state.tables.notifications).toEqual([]);
    expect(state.armedLevers).toEqual([]);
    expect(state.faults).toEqual({
      providerDown: false,
      offersExpired: false,
      rateLimitMax: null,
      rateLimitWindowSeconds: null,
    });
    expect(await stateOf(sub)).toEqual(state);
    const digest = await adminFetch(stack.api.baseUrl, 'GET', `/admin/travelers/${sub}/digest`);
    expect(await digest.json()).toEqual({ travelerId: sub, digest: state.digest });

    // A traveler the service has is left as it is.
    const again = await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${sub}`, {
      name: 'Renamed',
      locale: 'ja-JP',
    });
    expect(TravelerStateSchema.parse(await again.json())).toEqual(state);
  });

  it('stays the same while the traveler only reads, and shows each change they make', async () => {
    const traveler = await stack.identity.newTraveler();
    expect((await call(traveler.token, '/v1/profile')).status).toBe(200);
    const before = await stateOf(traveler.sub);

    for (const path of ['/v1/profile', '/v1/trips/page', '/v1/bookings/page', '/v1/me/notifications']) {
      expect((await call(traveler.token, path)).status, path).toBe(200);
    }
    expect(await stateOf(traveler.sub)).toEqual(before);

    const patched = await call(traveler.token, '/v1/profile', { locale: 'es-ES' }, 'PATCH');
    expect(patched.status).toBe(200);
    const afterPatch = await stateOf(traveler.sub);
    expect(afterPatch.tables.travelers?.[0]).toMatchObject({ locale: 'es-ES' });
    expect(afterPatch.digest).not.toBe(before.digest);

    await notifyTraveler(stack.api.baseUrl, traveler.sub, 'Seen');
    const notified = await stateOf(traveler.sub);
    expect(notified.tables.notifications).toEqual([
      expect.objectContaining({ title: 'Seen', read_at: null }),
    ]);
    const id = notified.tables.notifications?.[0]?.id as string;
    expect((await call(traveler.token, `/v1/me/notifications/${id}/read`, {}, 'POST')).status).toBe(200);
    const [read] = (await stateOf(traveler.sub)).tables.notifications ?? [];
    expect(read?.id).toBe(id);
    expect(read?.read_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    await adminFetch(stack.api.baseUrl, 'POST', '/admin/booking-levers', {
      travelerId: traveler.sub,
      lever: 'payment-decline',
    });
    expect((await stateOf(traveler.sub)).armedLevers).toEqual(['payment-decline']);
    await adminFetch(stack.api.baseUrl, 'DELETE', '/admin/booking-levers');

    await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${traveler.sub}/faults`, {
      providerDown: true,
    });
    expect((await stateOf(traveler.sub)).faults).toMatchObject({ providerDown: true });
    await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${traveler.sub}/app-release`, {
      latestVersion: '9.9.9',
    });
    expect((await stateOf(traveler.sub)).tables.app_release_previews).toEqual([
      expect.objectContaining({ latest_version: '9.9.9' }),
    ]);
    await adminFetch(stack.api.baseUrl, 'DELETE', '/admin/faults');
  });

  it('PUT creates the traveler with the locale asked for, and refuses one that is not a language tag', async () => {
    const sub = crypto.randomUUID();
    const created = await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${sub}`, {
      locale: 'es-ES',
    });
    expect(TravelerStateSchema.parse(await created.json()).tables.travelers?.[0]).toMatchObject({
      locale: 'es-ES',
    });

    const other = crypto.randomUUID();
    const refused = await adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${other}`, {
      locale: 'not a tag',
    });
    expect(refused.status).toBe(422);
    expect(ErrorEnvelopeSchema.parse(await refused.json()).error.details[0]).toMatchObject({
      field: 'locale',
    });
    expect((await adminFetch(stack.api.baseUrl, 'GET', `/admin/travelers/${other}`)).status).toBe(404);
  });

  it('refuses a traveler id that is not a UUID with the envelope', async () => {
    const response = await adminFetch(stack.api.baseUrl, 'GET', '/admin/travelers/not-a-uuid');
    expect(response.status).toBe(422);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('VALIDATION_ERROR');
  });
});
