/**
 * `npm run bench -- front-streams`: what the fleet's TLS front holds, with the nginx configuration
 * `npm run start:fleet` runs (scripts/fleet-nginx-config.ts over docs/scale-out-nginx.conf).
 *
 * A redis-server of its own, the BFF tests' scripted travel API, two BFF processes sharing that Redis, and
 * nginx in front of them (TLS, HTTP/2) on loopback. Sessions are seeded into Redis as a sign-in writes
 * them.
 *
 * 1. `/api/session` of a signed-in traveler at a fixed rate (`--rate` a second, `--requests` of them):
 *    straight to one instance (HTTP/1.1, keep-alive) and through the front (one HTTP/2 connection, as a
 *    browser), p50, p99 and max of each, and the front's p99 over the instance's. Target: at most 2x.
 * 2. `--streams` notification streams through the front, `--streams-per-connection` on each HTTP/2
 *    connection, `--tabs-per-traveler` per traveler: how many were answered 200 and went live, and how
 *    many were still open `--hold-seconds` later. Target: all of them. Bounded by `--timeout`.
 *
 * Exits non-zero when a target is missed.
 */
import { mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import http2, { type ClientHttp2Session } from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { BffFleet } from '../bff/test-support/bff-fleet.ts';
import { ScriptedTravelApi } from '../bff/test-support/scripted-travel-api.ts';
import { TEST_CONSUMER_SECRET, TEST_PUSH_SECRET } from '../bff/test-support/start-test-bff.ts';
import { seedTravelerSession } from '../bff/test-support/traveler-session.ts';
import { fleetNginxConfig } from '../scripts/fleet-nginx-config.ts';
import { findProgram } from '../scripts/prerequisites.ts';
import { freePort, ServiceGroup } from '../scripts/service-group.ts';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
import { printTable } from './support/print-table.ts';
import { startBenchRedis } from './support/redis-server.ts';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '10000' },
    'streams-per-connection': { type: 'string', default: '100' },
    'tabs-per-traveler': { type: 'string', default: '2' },
    'hold-seconds': { type: 'string', default: '20' },
    rate: { type: 'string', default: '200' },
    requests: { type: 'string', default: '4000' },
    timeout: { type: 'string', default: '900' },
  },
});
const STREAMS = Number(values.streams);
const PER_CONNECTION = Number(values['streams-per-connection']);
const TABS = Number(values['tabs-per-traveler']);
const HOLD_SECONDS = Number(values['hold-seconds']);
const RATE = Number(values.rate);
const REQUESTS = Number(values.requests);
const deadline = Date.now() + Number(values.timeout) * 1000;
const TARGET_RATIO = 2;

const root = path.resolve(import.meta.dirname, '..');
const nginx = findProgram('nginx');
if (nginx === undefined) {
  console.error('nginx is not installed: apt-get install nginx');
  process.exit(2);
}

function checkDeadline(): void {
  if (Date.now() > deadline) throw new Error('the benchmark ran out of time (--timeout)');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** Sends `REQUESTS` calls at `RATE` a second, whatever the answers' pace; the latency of each, sorted. */
async function atFixedRate(call: () => Promise<number>): Promise<{ sorted: number[]; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  const calls: Promise<void>[] = [];
  const started = performance.now();
  for (let index = 0; index < REQUESTS; index += 1) {
    const due = started + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    calls.push(
      call().then(
        (status) => {
          if (status === 200) latencies.push(performance.now() - sent);
          else failed += 1;
        },
        () => {
          failed += 1;
        },
      ),
    );
  }
  await Promise.all(calls);
  checkDeadline();
  return { sorted: latencies.sort((a, b) => a - b), failed };
}

function h2Get(session: ClientHttp2Session, target: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': target, cookie, 'x-requested-with': 'wayfare' });
    let status = 0;
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', () => undefined);
    stream.on('end', () => resolve(status));
    stream.on('error', reject);
  });
}

function connect(origin: string, ca: string): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(origin, { ca, servername: 'localhost' });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

/** One tab's notification stream over `session`: resolves once it is live, rejects when refused. */
class FrontStream {
  live = false;
  ended = false;

  open(session: ClientHttp2Session, cookie: string, tab: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const stream = session.request({
        ':path': `/api/notifications/stream?tab=front-tab-${tab}&visible=1`,
        cookie,
        accept: 'text/event-stream',
        'x-requested-with': 'wayfare',
      });
      let text = '';
      stream.on('response', (headers) => {
        const status = Number(headers[':status']);
        if (status !== 200) reject(new Error(`stream answered ${status}`));
      });
      stream.on('data', (chunk: Buffer) => {
        if (this.live) return;
        text += chunk.toString('utf8');
        if (text.includes('"state":"live"')) {
          this.live = true;
          resolve();
        }
      });
      stream.on('close', () => {
        this.ended = true;
        if (!this.live) reject(new Error(`stream closed (${stream.rstCode ?? 'no reset code'})`));
      });
      stream.on('error', () => undefined);
    });
  }
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'front-streams-'));
await chmod(dir, 0o755);
const redis = await startBenchRedis(60_000);
redis.client.disconnect();
const travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
const front = new ServiceGroup(root, (name, how) => console.error(`${name} exited (${how})`));
const frontPort = await freePort();
const origin = `https://localhost:${frontPort}`;
const fleet = new BffFleet({
  REDIS_URL: redis.url,
  REDIS_KEY_PREFIX: `front-bench-${Date.now()}:`,
  TRAVEL_API_URL: travelApi.url,
  CONSUMER_SECRET: TEST_CONSUMER_SECRET,
  PUSH_WEBHOOK_SECRET: TEST_PUSH_SECRET,
  PUBLIC_ORIGIN: origin,
  TRUST_PROXY: '127.0.0.1',
  REDIS_COMMAND_TIMEOUT_MS: '10000',
  // The scripted travel API sends no heartbeats: no upstream reopened for a minute of silence.
  NOTIFICATION_UPSTREAM_IDLE_MS: String(60 * 60 * 1000),
  LOG_LEVEL: 'warn',
});
const sessions: ClientHttp2Session[] = [];
let failed = false;
try {
  const travelers = Math.ceil(STREAMS / TABS);
  const seeder = await fleet.start();
  const cookies: string[] = [];
  for (let traveler = 0; traveler < travelers; traveler += 1) {
    const id = `5f1c2a7e-0b1d-4c5e-9a01-${String(traveler + 1).padStart(12, '0')}`;
    cookies.push((await seedTravelerSession(seeder.app, id)).cookie);
  }
  await seeder.close();
  const instances = [await fleet.spawn(), await fleet.spawn()];

  const tls = await ensureLocalCertificates(path.join(dir, 'tls'), 'Wayfare bench');
  const ca = await readFile(tls.caFile, 'utf8');
  const config = path.join(dir, 'nginx.conf');
  await writeFile(
    config,
    fleetNginxConfig({
      example: await readFile(path.join(root, 'docs/scale-out-nginx.conf'), 'utf8'),
      frontPort,
      bffPorts: instances.map((instance) => Number(new URL(instance.url).port)),
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      runDir: dir,
    }),
  );
  await front.start({
    name: 'nginx',
    command: nginx,
    args: ['-p', dir, '-c', config, '-e', 'stderr'],
    port: frontPort,
    env: {},
  });

  // 1. /api/session at the same rate, straight to one instance and through the front.
  const cookie = cookies[0] ?? '';
  const pool = new Pool(instances[0]?.url ?? '', { connections: 16 });
  const direct = await atFixedRate(async () => {
    const { statusCode, body } = await pool.request({
      path: '/api/session',
      method: 'GET',
      headers: { cookie, 'x-requested-with': 'wayfare' },
    });
    await body.dump();
    return statusCode;
  });
  await pool.close();
  // nginx ends an HTTP/2 connection after keepalive_requests (1,000) requests with GOAWAY; a browser then
  // opens another, and so does this.
  let latencySession: Promise<ClientHttp2Session> | undefined;
  const frontSession = (): Promise<ClientHttp2Session> => {
    latencySession ??= connect(origin, ca).then((session) => {
      sessions.push(session);
      session.on('error', () => undefined);
      session.once('goaway', () => (latencySession = undefined));
      return session;
    });
    return latencySession;
  };
  const throughFront = await atFixedRate(async () => h2Get(await frontSession(), '/api/session', cookie));

  // 2. The streams, `PER_CONNECTION` on each HTTP/2 connection.
  const streams: FrontStream[] = [];
  const refusals = new Map<string, number>();
  const openedAt = performance.now();
  for (let start = 0; start < STREAMS; start += PER_CONNECTION) {
    checkDeadline();
    const session = await connect(origin, ca);
    session.on('error', () => undefined);
    sessions.push(session);
    await Promise.all(
      Array.from({ length: Math.min(PER_CONNECTION, STREAMS - start) }, (_, offset) => {
        const tab = start + offset;
        const stream = new FrontStream();
        streams.push(stream);
        return stream.open(session, cookies[Math.floor(tab / TABS)] ?? '', tab).catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
        });
      }),
    );
  }
  const openSeconds = (performance.now() - openedAt) / 1000;
  const live = streams.filter((stream) => stream.live).length;
  await new Promise((resolve) => setTimeout(resolve, HOLD_SECONDS * 1000));
  const held = streams.filter((stream) => stream.live && !stream.ended).length;

  const ms = (value: number) => value.toFixed(1);
  const ratio = percentile(throughFront.sorted, 0.99) / Math.max(percentile(direct.sorted, 0.99), 0.001);
  console.log(`/api/session of a signed-in traveler, ${REQUESTS} calls at ${RATE} a second:`);
  printTable(
    ['', 'p50, ms', 'p99, ms', 'max, ms', 'failed'],
    [
      [
        'straight to one instance (HTTP/1.1)',
        ...[0.5, 0.99].map((p) => ms(percentile(direct.sorted, p))),
        ms(direct.sorted.at(-1) ?? 0),
        String(direct.failed),
      ],
      [
        'through the front (HTTP/2, TLS)',
        ...[0.5, 0.99].map((p) => ms(percentile(throughFront.sorted, p))),
        ms(throughFront.sorted.at(-1) ?? 0),
        String(throughFront.failed),
      ],
    ],
  );
  console.log(`Front p99 over the instance's: ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x)`);
  console.log(
    `\nNotification streams through the front: ${STREAMS} asked for, ${PER_CONNECTION} per HTTP/2 connection, ` +
      `${travelers} travelers (${TABS} tabs each), opened in ${openSeconds.toFixed(1)} s:`,
  );
  printTable(
    ['', 'streams', 'target', 'result'],
    [
      ['answered 200 and live', String(live), String(STREAMS), live === STREAMS ? 'ok' : 'FAIL'],
      [`still open ${HOLD_SECONDS} s later`, String(held), String(STREAMS), held === STREAMS ? 'ok' : 'FAIL'],
    ],
  );
  for (const [reason, count] of refusals) console.log(`  refused: ${count} x ${reason}`);
  console.log(`Upstream streams at the travel API: ${travelApi.notificationStreams.size}`);
  console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
  if (held < STREAMS || ratio > TARGET_RATIO || direct.failed + throughFront.failed > 0) failed = true;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  for (const session of sessions) session.destroy();
  await front.stopAll();
  await fleet.close();
  await travelApi.close();
  redis.child.kill();
  await rm(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
