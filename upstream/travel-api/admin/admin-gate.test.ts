import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { watchLatencyWait } from '../test-support/latency-wait.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { startTravelApi, TEST_ADMIN_TOKEN, type RunningTravelApi } from '../test-support/start-travel-api.ts';

let api: RunningTravelApi;
let closed: RunningTravelApi;
beforeAll(async () => {
  api = await startTravelApi();
  closed = await startTravelApi({ TRAVEL_API_ADMIN_TOKEN: '' });
});
afterAll(async () => {
  await api.close();
  await closed.close();
});

const admin = (method: string, body?: unknown): Promise<Response> =>
  fetch(`${api.baseUrl}/admin/faults`, {
    method,
    headers: {
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('admin API', () => {
  it('does not exist unless TRAVEL_API_ADMIN_TOKEN is set', async () => {
    const response = await fetch(`${closed.baseUrl}/admin/faults`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(404);
  });

  it('requires its own bearer token', async () => {
    const response = await fetch(`${api.baseUrl}/admin/faults`, {
      headers: { authorization: 'Bearer wrong-token' },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it('sets, reads and clears faults, rejecting unknown ones', async () => {
    expect(await (await admin('PUT', { latencyMs: 5 })).json()).toMatchObject({ latencyMs: 5 });
    expect(await (await admin('GET')).json()).toMatchObject({ latencyMs: 5 });
    expect(await (await admin('DELETE')).json()).toMatchObject({ latencyMs: 0 });
    const bad = await admin('PUT', { meteorStrike: true });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      error: { details: [{ field: 'meteorStrike', code: 'extra_forbidden' }] },
    });
  });

  it('injects latency into /v1 answers: each answer waits for a timer of that length', async () => {
    await admin('PUT', { latencyMs: 300 });
    const latency = watchLatencyWait(api.app.faults);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], fakeNodeBuiltins: true });
    try {
      let answered = false;
      const answer = signedFetch(api.baseUrl, { path: '/v1/app/update-check' }).then((response) => {
        answered = true;
        return response;
      });
      await latency.reached;
      await vi.advanceTimersByTimeAsync(299);
      // A later call that the latency does not hold is answered meanwhile; the first one still waits.
      expect((await admin('GET')).status).toBe(200);
      expect(latency.over()).toBe(false);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(latency.over()).toBe(true);
      expect((await answer).status).toBe(200);
    } finally {
      vi.useRealTimers();
      latency.restore();
      await admin('DELETE');
    }
  });

  it('overrides the rate limit quota while the fault is set', async () => {
    await admin('PUT', { rateLimitMax: 2, rateLimitWindowSeconds: 30 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await signedFetch(api.baseUrl, { method: 'POST', path: '/v1/guest-sessions' })).status);
    }
    await admin('DELETE');
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(2);
    expect(statuses.at(-1)).toBe(429);
  });

  it('a quota set by the lever starts fresh windows, whatever was counted before; clearing it does too', async () => {
    const guestSession = () => signedFetch(api.baseUrl, { method: 'POST', path: '/v1/guest-sessions' });
    for (let i = 0; i < 3; i++) expect((await guestSession()).status).toBe(201);

    await admin('PUT', { rateLimitMax: 2, rateLimitWindowSeconds: 30 });
    const answers: Response[] = [];
    for (let i = 0; i < 3; i++) answers.push(await guestSession());
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 429]);
    const refused = (await answers[2]?.json()) as { error: { retryAfterSeconds: number } };
    expect(refused.error.retryAfterSeconds).toBeGreaterThan(25);

    await admin('DELETE');
    expect((await guestSession()).status).toBe(201);
  });
});
