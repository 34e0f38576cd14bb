// `npm run start:fleet`: the app as it runs behind a TLS front. A Redis primary, one replica and three
// Sentinels (docs/scale-out.md, "Redis with Sentinel"), the identity and travel API stand-ins (the travel
// API over HTTPS with HTTP/2), two BFF instances finding the primary through the Sentinels, and nginx
// terminating TLS with HTTP/2 in front of them (docs/scale-out-nginx.conf, filled in with this fleet's
// ports and paths), each on loopback, everything written into one temporary folder that goes when the
// fleet stops. It supervises them: a process that dies is started again with back-off while the others
// keep serving. On request (its control socket) it restarts the instances in turn, or adds or removes one,
// rewriting nginx's upstream list and reloading it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import webPush from 'web-push';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
import { fleetControlPath, serveFleetControl, type FleetControl } from './fleet-control.ts';
import { untilServedThroughFront } from './fleet-front-probe.ts';
import { fleetNginxConfig } from './fleet-nginx-config.ts';
import { fleetPrometheusConfig } from './fleet-prometheus-config.ts';
import { FLEET_DOWN_AFTER_MS, fleetRedis, overcommitAdvice } from './fleet-redis-config.ts';
import { writeFleetState } from './fleet-state.ts';
import { fleetSummary } from './fleet-summary.ts';
import { bffCredentialsEnv, LOCAL_AUDIENCE, LOCAL_SECRETS } from './local-credentials.ts';
import { findProgram } from './prerequisites.ts';
import { freePort, portAnswers, portSetting, ServiceGroup, type Service } from './service-group.ts';

const run = promisify(execFile);

/** How long a Node service may take to listen: a BFF took 20 s on a two-core machine under load. */
const NODE_START_TIMEOUT_MS = 60_000;
/** How long a BFF may take to drain and close (SHUTDOWN_DRAIN_TIMEOUT_MS, 15 s, and its close) before it is killed. */
const BFF_STOP_TIMEOUT_MS = 30_000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv.includes('--help')) {
  console.log(`usage: npm run start:fleet
  Starts a Redis primary, a replica and three Sentinels, the stand-ins, two BFF instances on that Redis
  and nginx terminating TLS (HTTP/2) in front of them, and Prometheus scraping them, on loopback, and
  prints every URL (the https one to open first) and the certificate authorities to trust. A process that
  dies is restarted with back-off while the others keep serving; Ctrl-C stops them all. \`npm run
  fleet:roll\` restarts the BFF instances one at a time, \`npm run fleet:add\` starts one more and
  \`npm run fleet:remove -- bff-N\` drains one and takes it out (through a control socket named by the
  port; the front's upstream list is rewritten and nginx reloaded). Needs nginx,
  redis-server, redis-sentinel and prometheus (sudo apt-get install nginx redis-server redis-sentinel
  prometheus). Run \`npm run build\` first so that the BFFs serve the app.
  WAYFARE_FLEET_PORT       port of the https front (default 8443)
  WAYFARE_FLEET_TRAVEL_API_PORT, WAYFARE_FLEET_IDENTITY_PORT
                           ports of the stand-ins (default: free ones)
  WAYFARE_FLEET_PROMETHEUS_PORT
                           port of Prometheus (default: a free one)
  WAYFARE_DEMO=0           without the demo panel and its admin API
  OTEL_EXPORTER_OTLP_ENDPOINT and the other OTEL_* variables
                           pass to every BFF instance and the travel API: their spans go to that
                           collector (docs/operations.md, "Which traces are recorded")
  WAYFARE_LOG_FORMAT=json  each service's log lines as JSON, prefixed by its name
  WAYFARE_FLEET_STATE_FILE a file to write the fleet's ports, nginx configuration and Redis settings
                           into once it is ready (mode 0600, scripts/fleet-state.ts), removed at the end`);
  process.exit(0);
}

const nginx = findProgram('nginx');
const redisServer = findProgram('redis-server');
const redisSentinel = findProgram('redis-sentinel');
const prometheus = findProgram('prometheus');
for (const [program, found] of [
  ['nginx', nginx],
  ['redis-server', redisServer],
  ['redis-sentinel', redisSentinel],
  ['prometheus', prometheus],
] as const) {
  if (found === undefined) {
    console.error(
      `${program} is not installed: install it with \`sudo apt-get install ${program}\`, then run npm run start:fleet again.`,
    );
    process.exit(1);
  }
}

const frontPort = portSetting('WAYFARE_FLEET_PORT', 8443);
if (await portAnswers(frontPort, '127.0.0.1')) {
  console.error(`Port ${frontPort} is already in use: set WAYFARE_FLEET_PORT to a free port.`);
  process.exit(1);
}
const demo = (process.env.WAYFARE_DEMO ?? '1') !== '0';
const webDist = path.resolve(root, process.env.WEB_DIST_DIR ?? 'dist/web');
const ports = {
  redis: {
    primary: await freePort(),
    replica: await freePort(),
    sentinels: [await freePort(), await freePort(), await freePort()],
  },
  identity: portSetting('WAYFARE_FLEET_IDENTITY_PORT', undefined) ?? (await freePort()),
  travelApi: portSetting('WAYFARE_FLEET_TRAVEL_API_PORT', undefined) ?? (await freePort()),
  prometheus: portSetting('WAYFARE_FLEET_PROMETHEUS_PORT', undefined) ?? (await freePort()),
};
/** A BFF instance of the fleet: its name (bff-N), its port and its metrics listener's. */
interface Instance {
  name: string;
  port: number;
  metricsPort: number;
}
/** The instances in the front's rotation, by number: two at start, more or fewer on request. */
const instances: Instance[] = [
  { name: 'bff-1', port: await freePort(), metricsPort: await freePort() },
  { name: 'bff-2', port: await freePort(), metricsPort: await freePort() },
];
const instanceNumber = (instance: Instance) => Number(instance.name.slice('bff-'.length));
const appOrigin = `https://localhost:${frontPort}`;
const issuer = `http://localhost:${ports.identity}`;
const audience = LOCAL_AUDIENCE;
const secrets = {
  ...LOCAL_SECRETS,
  // One key and one Web Push pair for the whole fleet (docs/scale-out.md), new for every run.
  sessionKeys: `fleet:${randomBytes(32).toString('base64')}`,
  vapid: webPush.generateVAPIDKeys(),
};

const stateFile = process.env.WAYFARE_FLEET_STATE_FILE || undefined;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-fleet-'));
// nginx's workers (an unprivileged user when started as root) write their temporary files under it.
await chmod(dataDir, 0o755);
let removed = false;
let control: FleetControl | undefined;
const removeDataDir = async () => {
  if (removed) return;
  removed = true;
  await control?.close();
  await rm(dataDir, { recursive: true, force: true });
  if (stateFile !== undefined) await rm(stateFile, { force: true });
};

// A process that dies is restarted (the folder with the certificates and Redis's files stays); only a
// stop, or a process that never started, ends the fleet and removes the folder.
const { group, stop: stopAll } = ServiceGroup.forCommand(root, 'fleet', removeDataDir, { supervise: true });

async function main(): Promise<void> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    console.log('[fleet] dist/web is missing: run `npm run build` first to serve the app.');
  }
  const front = await ensureLocalCertificates(path.join(dataDir, 'tls'), 'Wayfare fleet');
  const travelApiData = path.join(dataDir, 'travel-api');
  // The stand-ins call the front (push webhook, back-channel logout) and trust its local authority.
  const trustFront = { NODE_EXTRA_CA_CERTS: front.caFile };

  // Redis and its Sentinels ask for passwords, which the instances get in their environment.
  const redisDir = path.join(dataDir, 'redis');
  await mkdir(redisDir, { mode: 0o700 });
  const redis = fleetRedis((name) => path.join(redisDir, name), ports.redis);
  for (const file of redis.files) {
    await mkdir(path.join(redisDir, file.name), { mode: 0o700 });
    const config = path.join(redisDir, `${file.name}.conf`);
    await writeFile(config, file.config, { mode: 0o600 });
    await group.start({
      name: file.name,
      command: file.sentinel ? redisSentinel : redisServer,
      args: [config],
      port: file.port,
      env: {},
      minRestartDelayMs: file.minRestartDelayMs,
    });
  }
  await group.start(
    {
      name: 'identity',
      args: [path.join(root, 'upstream/identity/run-identity.ts')],
      port: ports.identity,
      env: {
        ...trustFront,
        IDENTITY_PORT: String(ports.identity),
        IDENTITY_ISSUER: issuer,
        IDENTITY_DATA_DIR: path.join(dataDir, 'identity'),
        IDENTITY_BFF_CLIENT_SECRET: secrets.bffClient,
        IDENTITY_BFF_ORIGIN: appOrigin,
        IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI: `${appOrigin}/auth/backchannel-logout`,
        IDENTITY_DEMO_MODE: String(demo),
        TRAVEL_API_AUDIENCE: audience,
      },
    },
    NODE_START_TIMEOUT_MS,
  );
  await group.start(
    {
      name: 'travel-api',
      args: [path.join(root, 'upstream/travel-api/run-travel-api.ts')],
      port: ports.travelApi,
      env: {
        ...trustFront,
        TRAVEL_API_PORT: String(ports.travelApi),
        TRAVEL_API_DATA_DIR: travelApiData,
        TRAVEL_API_TLS: 'true',
        IDENTITY_ISSUER: issuer,
        TRAVEL_API_AUDIENCE: audience,
        TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: secrets.consumerSlug,
        TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: secrets.consumer,
        TRAVEL_API_PUSH_WEBHOOK_URL: `${appOrigin}/webhooks/travel-api/push`,
        TRAVEL_API_PUSH_WEBHOOK_SECRET: secrets.pushWebhook,
        ...(demo ? { TRAVEL_API_ADMIN_TOKEN: secrets.admin } : {}),
      },
    },
    NODE_START_TIMEOUT_MS,
  );
  const bffService = ({ name, port, metricsPort }: Instance): Service => ({
    name,
    args: [path.join(root, 'bff/server.ts')],
    port,
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_ORIGIN: appOrigin,
      // nginx's own address: the instances believe X-Forwarded-For (the address nginx saw) from it only.
      TRUST_PROXY: '127.0.0.1',
      DATA_DIR: path.join(dataDir, name),
      WEB_DIST_DIR: webDist,
      TRAVEL_API_URL: `https://localhost:${ports.travelApi}`,
      TRAVEL_API_CA_FILE: path.join(travelApiData, 'tls', 'ca.pem'),
      ...bffCredentialsEnv(issuer, demo),
      ...redis.env,
      SESSION_ENCRYPTION_KEYS: secrets.sessionKeys,
      VAPID_PUBLIC_KEY: secrets.vapid.publicKey,
      VAPID_PRIVATE_KEY: secrets.vapid.privateKey,
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
    },
  });
  // Side by side: each instance takes its own seconds to start on a busy machine.
  await Promise.all(instances.map((instance) => group.start(bffService(instance), NODE_START_TIMEOUT_MS)));

  // Prometheus scrapes every instance and the travel API, with the alert rules (docs/operations.md).
  const prometheusDir = path.join(dataDir, 'prometheus');
  await mkdir(prometheusDir, { mode: 0o755 });
  const prometheusConfig = path.join(prometheusDir, 'prometheus.yml');
  const writePrometheusConfig = () =>
    writeFile(
      prometheusConfig,
      fleetPrometheusConfig({
        bffMetricsPorts: instances.map((instance) => instance.metricsPort),
        travelApiPort: ports.travelApi,
        travelApiCaFile: path.join(travelApiData, 'tls', 'ca.pem'),
        rulesFile: path.join(root, 'ops/prometheus/alerts.yml'),
        intervalSeconds: 2,
      }),
    );
  await writePrometheusConfig();
  await group.start({
    name: 'prometheus',
    command: prometheus,
    args: [
      `--config.file=${prometheusConfig}`,
      `--storage.tsdb.path=${path.join(prometheusDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${ports.prometheus}`,
      '--log.level=warn',
    ],
    port: ports.prometheus,
    env: {},
  });

  const runDir = path.join(dataDir, 'nginx');
  await mkdir(runDir, { mode: 0o755 });
  const config = path.join(runDir, 'nginx.conf');
  const example = await readFile(path.join(root, 'docs/scale-out-nginx.conf'), 'utf8');
  const nginxConfig = () =>
    fleetNginxConfig({
      example,
      frontPort,
      bffPorts: instances.map((instance) => instance.port),
      certFile: front.certFile,
      keyFile: front.keyFile,
      runDir,
    });
  await writeFile(config, nginxConfig());
  await group.start({
    name: 'nginx',
    command: nginx,
    args: ['-p', runDir, '-c', config, '-e', 'stderr'],
    port: frontPort,
    env: {},
  });
  const writeState = async () => {
    if (stateFile === undefined) return;
    await writeFleetState(stateFile, {
      dataDir,
      frontPort,
      bffPorts: instances.map((instance) => instance.port),
      nginx: { program: nginx as string, runDir, config },
      redis: { sentinelPorts: ports.redis.sentinels, env: redis.env, downAfterMs: FLEET_DOWN_AFTER_MS },
    });
  };
  /**
   * Points the front and Prometheus at `instances` as they are now: nginx's configuration rewritten,
   * checked (`nginx -t`, the running one untouched when it fails) and reloaded (`nginx -s reload`: new
   * workers take new requests, the old ones finish theirs), Prometheus told to read its own again.
   */
  const retarget = async (say: (line: string) => void) => {
    const startedAt = Date.now();
    const next = `${config}.next`;
    await writeFile(next, nginxConfig());
    await run(nginx as string, ['-p', runDir, '-c', next, '-e', 'stderr', '-t', '-q']).catch(
      (error: Error & { stderr?: string }) => {
        throw new Error(`nginx refused the new configuration: ${error.stderr?.trim() || error.message}`);
      },
    );
    await rename(next, config);
    const master = group.pid('nginx');
    if (master === undefined) throw new Error('nginx is not running');
    const before = await nginxWorkers(master);
    await run(nginx as string, ['-p', runDir, '-c', config, '-e', 'stderr', '-s', 'reload']);
    await untilReloaded(master, before);
    say(
      `front reloaded in ${seconds(startedAt)}: ${instances.map(({ name, port }) => `${name} (port ${port})`).join(', ')}`,
    );
    await writePrometheusConfig();
    const scraper = group.pid('prometheus');
    if (scraper !== undefined) process.kill(scraper, 'SIGHUP');
    await writeState();
  };
  const frontCa = await readFile(front.caFile, 'utf8');
  control = await serveFleetControl(fleetControlPath(frontPort), {
    // `npm run fleet:roll`: each instance drains and restarts, the next once this one is ready again and
    // the front sends it requests.
    roll: async (say) => {
      for (const { name, port } of [...instances]) {
        say(`${name}: draining, then restarting (port ${port})`);
        await group.restart(name, BFF_STOP_TIMEOUT_MS, NODE_START_TIMEOUT_MS);
        await untilReady(port);
        say(`${name}: ready again (http://127.0.0.1:${port}/readyz answers 200)`);
        // The front's own view: the next instance drains only once this one takes requests through it.
        await untilServedThroughFront({
          frontPort,
          ca: frontCa,
          instance: `127.0.0.1:${port}`,
          timeoutMs: NODE_START_TIMEOUT_MS,
        });
        say(`${name}: answering through the front (${appOrigin}/readyz)`);
      }
    },
    // `npm run fleet:add`: a new instance joins the front's rotation once it is ready.
    add: async (say) => {
      const taken = new Set(instances.map((instance) => instance.name));
      let number = 1;
      while (taken.has(`bff-${number}`)) number += 1;
      const instance = { name: `bff-${number}`, port: await freePort(), metricsPort: await freePort() };
      say(`${instance.name}: starting (port ${instance.port}, metrics ${instance.metricsPort})`);
      const startedAt = Date.now();
      try {
        // Supervised from its start: an instance that fails to start is not the whole fleet's failure.
        await group.start(bffService(instance), NODE_START_TIMEOUT_MS, { restartOnExit: true });
        await untilReady(instance.port);
      } catch (error) {
        await group.stop(instance.name, BFF_STOP_TIMEOUT_MS);
        throw error;
      }
      say(
        `${instance.name}: ready after ${seconds(startedAt)} (http://127.0.0.1:${instance.port}/readyz answers 200)`,
      );
      instances.push(instance);
      instances.sort((a, b) => instanceNumber(a) - instanceNumber(b));
      await retarget(say);
    },
    // `npm run fleet:remove -- bff-N`: the front stops sending it requests, then it drains and exits.
    remove: async (name, say) => {
      const instance = instances.find((candidate) => candidate.name === name);
      if (instance === undefined) {
        throw new Error(
          `no instance is named ${name} (the fleet runs ${instances.map((candidate) => candidate.name).join(', ')})`,
        );
      }
      if (instances.length === 1) throw new Error(`${name} is the fleet's last instance; add one first`);
      instances.splice(instances.indexOf(instance), 1);
      await retarget(say);
      say(`${name}: draining, then stopping (port ${instance.port})`);
      const stoppingAt = Date.now();
      await group.stop(name, BFF_STOP_TIMEOUT_MS);
      say(`${name}: stopped after ${seconds(stoppingAt)}`);
    },
  });
  for (const line of fleetSummary({
    appOrigin,
    frontCaFile: front.caFile,
    bffs: instances,
    travelApiOrigin: `https://localhost:${ports.travelApi}`,
    travelApiCaFile: path.join(travelApiData, 'tls', 'ca.pem'),
    identityOrigin: issuer,
    redis: { primary: ports.redis.primary, replica: ports.redis.replica, sentinels: redis.sentinels },
    redisDir,
    prometheusOrigin: `http://127.0.0.1:${ports.prometheus}`,
    demo,
  }))
    console.log(line);
  const overcommit = overcommitAdvice(
    await readFile('/proc/sys/vm/overcommit_memory', 'utf8').catch(() => undefined),
  );
  if (overcommit) console.log(overcommit);
  await writeState();
  const portSuffix = frontPort === 8443 ? '' : ` with WAYFARE_FLEET_PORT=${frontPort}`;
  console.log(
    `[fleet] rolling restart of the BFF instances: npm run fleet:roll${portSuffix}; one more: npm run fleet:add${portSuffix}; one fewer: npm run fleet:remove -- bff-N${portSuffix} (control socket ${fleetControlPath(frontPort)})`,
  );
  console.log(`Wayfare fleet is ready at ${appOrigin}${demo ? ' (demo mode)' : ''}`);
}

/** The time since `since`, as the fleet's lines say it ("2.4 s"). */
function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** nginx's worker processes under `master` (Linux's /proc): their ids, and whether each is shutting down. */
async function nginxWorkers(master: number): Promise<Map<number, boolean>> {
  const workers = new Map<number, boolean>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const [stat, title] = await Promise.all([
      readFile(`/proc/${entry}/stat`, 'utf8'),
      readFile(`/proc/${entry}/cmdline`, 'utf8'),
    ]).catch(() => ['', '']);
    // The parent's id is the second field after the name in parentheses (which may hold spaces).
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent !== master || !title.startsWith('nginx: worker process')) continue;
    workers.set(Number(entry), title.includes('is shutting down'));
  }
  return workers;
}

/**
 * Waits until nginx has applied a reload: a worker started after it serves, and every worker from before
 * it is shutting down (finishing the requests it holds) or gone. nginx says nothing when a reload fails
 * (it keeps its old workers), so this is how the supervisor knows.
 */
async function untilReloaded(master: number, before: Map<number, boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const now = await nginxWorkers(master);
    const serving = [...now].filter(([, shuttingDown]) => !shuttingDown).map(([pid]) => pid);
    if (serving.length > 0 && serving.every((pid) => !before.has(pid))) return;
    if (Date.now() > deadline) throw new Error('nginx did not apply the new configuration within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the instance on `port` answers GET /readyz with 200 (its checks pass, it is not draining). */
async function untilReady(port: number): Promise<void> {
  const deadline = Date.now() + NODE_START_TIMEOUT_MS;
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`, {
      signal: AbortSignal.timeout(5_000),
    }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the instance on port ${port} was not ready within ${NODE_START_TIMEOUT_MS / 1000} s (last answer: ${status || 'none'})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

main().catch((error: unknown) => {
  console.error(`[fleet] ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
