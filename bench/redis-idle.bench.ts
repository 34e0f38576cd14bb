/**
 * `npm run bench -- redis-idle`: what a connected traveler who receives nothing costs the fleet's Redis.
 *
 * A redis-server of its own (free port, no persistence), the BFF tests' scripted travel API, and two BFF
 * processes sharing that Redis. Every traveler (a session seeded into Redis) opens one notification
 * stream on each instance, the worst case for the leases: one instance holds the traveler's upstream
 * stream, the other follows it. Once every stream is live and two lease periods have passed, it reads
 * `INFO commandstats`, waits `--seconds`, reads it again and divides the commands run meanwhile by the
 * time and the number of travelers. The INFO calls themselves are left out.
 *
 * Target: at most 0.05 commands per second per idle connected traveler. Exits non-zero above it, or when
 * a stream is refused or ends.
 *
 * Flags: --travelers <n> (default 5000), --seconds <n> (default 60), --lease-ms <ms> (default 5000, the
 * BFF's default).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { BffFleet } from '../bff/test-support/bff-fleet.ts';
import { BrowserStream } from '../bff/test-support/browser-stream.ts';
import { ScriptedTravelApi } from '../bff/test-support/scripted-travel-api.ts';
import { TEST_CONSUMER_SECRET, TEST_PUSH_SECRET } from '../bff/test-support/start-test-bff.ts';
import { seedTravelerSession } from '../bff/test-support/traveler-session.ts';
import { printTable } from './support/print-table.ts';
import { startBenchRedis, type BenchRedis } from './support/redis-server.ts';

const { values } = parseArgs({
  options: {
    travelers: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '60' },
    'lease-ms': { type: 'string', default: '5000' },
  },
});
const TRAVELERS = Number(values.travelers);
const SECONDS = Number(values.seconds);
const LEASE_MS = Number(values['lease-ms']);
const TARGET = 0.05;
/**
 * What no window of a minute shows: each traveler's keys are written again every ten minutes while they
 * stay the same (TRAVELER_KEY_REFRESH_MS of bff/notifications/notification-store.redis.ts). For a traveler
 * with a tab on each of two instances: the holder's lease script (EVAL, GET, SET), the follower's look at
 * the lease (EVAL, GET, TIME, ZSCORE), each instance's visibility (MULTI, HSET, PEXPIRE, EXEC) and the
 * holder's upstream state (SET).
 */
const REFRESH_COMMANDS_PER_TRAVELER = 3 + 4 + 2 * 4 + 1;
const REFRESH_SECONDS = 10 * 60;
/** Streams opened at once while the travelers connect. */
const OPENING_CONCURRENCY = 50;
const STEP_TIMEOUT_MS = 120_000;

/** Calls per command since Redis started (INFO commandstats), without INFO itself. */
async function commandCalls(client: BenchRedis['client']): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const match of (await client.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (match[1] !== 'info') calls.set(match[1]!, Number(match[2]));
  }
  return calls;
}

function isLive(event: { event: string; data: string }): boolean {
  return event.event === 'status' && (JSON.parse(event.data) as { state: string }).state === 'live';
}

const redis = await startBenchRedis(STEP_TIMEOUT_MS);
const travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
const fleet = new BffFleet({
  REDIS_URL: redis.url,
  REDIS_KEY_PREFIX: `idle-bench-${Date.now()}:`,
  TRAVEL_API_URL: travelApi.url,
  CONSUMER_SECRET: TEST_CONSUMER_SECRET,
  PUSH_WEBHOOK_SECRET: TEST_PUSH_SECRET,
  NOTIFICATION_LEASE_MS: String(LEASE_MS),
  REDIS_COMMAND_TIMEOUT_MS: '10000',
  // The scripted travel API sends no heartbeats on its notification streams: without this, each upstream
  // stream would be reopened (and caught up) after a minute of silence, which the travel API's own
  // heartbeats prevent and which is not idle cost.
  NOTIFICATION_UPSTREAM_IDLE_MS: String(60 * 60 * 1000),
  LOG_LEVEL: 'warn',
});
const streams: BrowserStream[] = [];
let failed = false;
try {
  // Sessions are written through an instance of this process, which leaves before the measurement.
  const seeder = await fleet.start();
  const cookies: string[] = [];
  for (let traveler = 0; traveler < TRAVELERS; traveler += 1) {
    const id = `5f1c2a7e-0b1d-4c5e-9a01-${String(traveler + 1).padStart(12, '0')}`;
    cookies.push((await seedTravelerSession(seeder.app, id)).cookie);
  }
  await seeder.close();
  const instances = [await fleet.spawn(), await fleet.spawn()];

  const openedAt = performance.now();
  const tabs = cookies.flatMap((cookie) => instances.map((instance) => ({ cookie, url: instance.url })));
  for (let start = 0; start < tabs.length; start += OPENING_CONCURRENCY) {
    await Promise.all(
      tabs.slice(start, start + OPENING_CONCURRENCY).map(async ({ cookie, url }) => {
        const stream = await BrowserStream.open(`${url}/api/notifications/stream?visible=1`, {
          headers: { cookie, 'x-requested-with': 'wayfare' },
        });
        if (stream.response.status !== 200) throw new Error(`stream refused: ${stream.response.status}`);
        streams.push(stream);
        await stream.next(isLive, { timeoutMs: STEP_TIMEOUT_MS }).catch((error: unknown) => {
          const states = stream.events.map((event) => event.data).join(', ');
          throw new Error(`a stream was not live (${states}) after ${streams.length} opened`, {
            cause: error,
          });
        });
      }),
    );
  }
  const openSeconds = (performance.now() - openedAt) / 1000;
  // Past the opening: each lease taken, each follower's first look at it done.
  await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));

  const before = await commandCalls(redis.client);
  const measuredFrom = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const after = await commandCalls(redis.client);
  const elapsed = (performance.now() - measuredFrom) / 1000;

  const ended = streams.filter((stream) => stream.events.some((event) => event.event === 'session-ended'));
  if (ended.length > 0) {
    console.error(`${ended.length} streams ended during the measurement`);
    failed = true;
  }
  const delta = [...after]
    .map(([command, calls]) => [command, calls - (before.get(command) ?? 0)] as const)
    .filter(([, calls]) => calls > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = delta.reduce((sum, [, calls]) => sum + calls, 0);
  const measured = total / elapsed / TRAVELERS;
  const refresh = REFRESH_COMMANDS_PER_TRAVELER / REFRESH_SECONDS;
  const perTraveler = measured + refresh;
  console.log(
    `${TRAVELERS} travelers, two tabs each (one per instance), ${streams.length} browser streams and ` +
      `${travelApi.notificationStreams.size} upstream streams open in ${openSeconds.toFixed(1)} s; ` +
      `lease ${LEASE_MS} ms; measured over ${elapsed.toFixed(1)} s with nothing delivered.`,
  );
  printTable(
    ['Redis command', 'calls', 'per second'],
    delta.map(([command, calls]) => [command, String(calls), (calls / elapsed).toFixed(2)]),
  );
  printTable(
    ['', 'measured', 'target', 'result'],
    [
      ['measured: commands per second per idle connected traveler', measured.toFixed(4), '', ''],
      [
        `plus each traveler's keys written again every ${REFRESH_SECONDS / 60} min (${REFRESH_COMMANDS_PER_TRAVELER} commands)`,
        refresh.toFixed(4),
        '',
        '',
      ],
      [
        'commands per second per idle connected traveler',
        perTraveler.toFixed(4),
        `<= ${TARGET}`,
        perTraveler <= TARGET ? 'ok' : 'FAIL',
      ],
    ],
  );
  console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
  if (perTraveler > TARGET) failed = true;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  for (const stream of streams) stream.abort();
  await fleet.close();
  await travelApi.close();
  redis.client.disconnect();
  redis.child.kill();
}
process.exit(failed ? 1 : 0);
