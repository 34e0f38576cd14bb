import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#shared/upstream/notifications.ts';
import { BffFleet, type FleetInstance } from '../test-support/bff-fleet.ts';
import { BrowserStream } from '../test-support/browser-stream.ts';
import { waitFor } from '../test-support/redis-server-process.ts';
import { RedisSentinelGroup, SENTINEL_PRIMARY_NAME } from '../test-support/redis-sentinel-group.ts';
import { notificationFixture, ScriptedTravelApi } from '../test-support/scripted-travel-api.ts';
import { TEST_CONSUMER_SECRET, TEST_PUSH_SECRET } from '../test-support/start-test-bff.ts';
import { seedTravelerSession } from '../test-support/traveler-session.ts';

let sentinels: RedisSentinelGroup;
let travelApi: ScriptedTravelApi;
let fleet: BffFleet;
const streams: BrowserStream[] = [];

beforeAll(async () => {
  sentinels = await RedisSentinelGroup.start({ downAfterMs: 1000, failoverTimeoutMs: 5000 });
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  fleet = new BffFleet({
    REDIS_SENTINELS: sentinels.sentinelsSetting,
    REDIS_SENTINEL_NAME: SENTINEL_PRIMARY_NAME,
    TRAVEL_API_URL: travelApi.url,
    CONSUMER_SECRET: TEST_CONSUMER_SECRET,
    PUSH_WEBHOOK_SECRET: TEST_PUSH_SECRET,
    NOTIFICATION_LEASE_MS: '3000',
    NOTIFICATION_RECONNECT_BASE_MS: '20',
    NOTIFICATION_RECONNECT_CAP_MS: '200',
    // A killed primary fails commands at once; a long timeout only spares a loaded machine's stalls.
    REDIS_COMMAND_TIMEOUT_MS: '10000',
  });
}, 60_000);

afterAll(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  await fleet?.close();
  await travelApi?.close();
  await sentinels?.close();
});

const TRAVELERS = ['b1', 'b2', 'b3'].map((n) => `5f1c2a7e-0b1d-4c5e-9a01-0000000000${n}`);

async function openStream(url: string, cookie: string): Promise<BrowserStream> {
  const stream = await BrowserStream.open(`${url}/api/notifications/stream?visible=1`, {
    headers: { cookie, 'x-requested-with': 'wayfare' },
  });
  streams.push(stream);
  expect(stream.response.status).toBe(200);
  await stream.next((event) => event.event === 'status' && event.data.includes('"live"'));
  return stream;
}

async function receives(stream: BrowserStream, id: string): Promise<void> {
  await stream.next((event) => event.event === 'notification' && event.data.includes(`"id":"${id}"`));
}

function notificationIds(stream: BrowserStream): string[] {
  return stream.data<{ notification: Notification }>('notification').map((data) => data.notification.id);
}

/** Whether the instance answers this cookie's session as signed in (false while it cannot reach Redis). */
async function signedIn(instance: FleetInstance, cookie: string): Promise<boolean> {
  const response = await fetch(`${instance.url}/api/session`, { headers: { cookie } });
  if (response.status !== 200) return false;
  return ((await response.json()) as { authenticated: boolean }).authenticated;
}

describe('a fleet on Redis Sentinel', () => {
  it('keeps its sessions, writes and notifications when the primary is killed and a replica promoted', async () => {
    const [a, b] = [await fleet.start(), await fleet.start()] as [FleetInstance, FleetInstance];
    const earlier = await seedTravelerSession(a.app, TRAVELERS[0]!);
    const onA = await openStream(a.url, earlier.cookie);
    const onB = await openStream(b.url, earlier.cookie);
    travelApi.emit(notificationFixture('f-1'));
    await receives(onA, 'f-1');
    await receives(onB, 'f-1');
    // Written the instant before the crash: the write waited for the replica to hold it.
    const lastInstant = await seedTravelerSession(b.app, TRAVELERS[1]!);

    await sentinels.killPrimary();
    await sentinels.waitForPromotion();

    // Nothing written before is lost, whichever instance reads it once it found the new primary.
    for (const instance of [a, b]) {
      for (const { cookie } of [earlier, lastInstant]) {
        await waitFor(() => signedIn(instance, cookie), 'a session written before the failover');
      }
    }
    // New writes go to the new primary, and every instance reads them.
    const later = await seedTravelerSession(a.app, TRAVELERS[2]!);
    expect(await signedIn(b, later.cookie)).toBe(true);

    // The lease is taken again (one upstream stream) and the instances' subscriptions moved with the
    // primary: a notification raised after the failover reaches both tabs, once.
    travelApi.emit(notificationFixture('f-2'));
    await receives(onA, 'f-2');
    await receives(onB, 'f-2');
    await waitFor(() => travelApi.notificationStreams.size === 1, 'one upstream stream for the traveler');
    travelApi.emit(notificationFixture('f-3'));
    await receives(onA, 'f-3');
    await receives(onB, 'f-3');
    for (const stream of [onA, onB]) expect(notificationIds(stream)).toEqual(['f-1', 'f-2', 'f-3']);
  }, 60_000);
});
