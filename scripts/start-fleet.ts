// `npm run start:fleet`: the app as it runs behind a TLS front. A Redis primary, one replica and three
// Sentinels (docs/scale-out.md, "Redis with Sentinel"), the identity and travel API stand-ins (the travel
// API over HTTPS with HTTP/2), two BFF instances finding the primary through the Sentinels, and nginx
// terminating TLS with HTTP/2 in front of them (docs/scale-out-nginx.conf, filled in with this fleet's
// ports and paths), each on loopback, everything written into one temporary folder that goes when the
// fleet stops. It supervises them: a process that dies is started again with back-off while the others
// keep serving.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webPush from 'web-push';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
import { fleetControlPath, serveFleetControl, type FleetControl } from './fleet-control.ts';
import { untilServedThroughFront } from './fleet-front-probe.ts';
import { fleetNginxConfig } from './fleet-nginx-config.ts';
import { fleetPrometheusConfig } from './fleet-prometheus-config.ts';
import { FLEET_DOWN_AFTER_MS, fleetRedis } from './fleet-redis-config.ts';
import { writeFleetState } from './fleet-state.ts';
import { fleetSummary } from './fleet-summary.ts';
import { bffCredentialsEnv, LOCAL_AUDIENCE, LOCAL_SECRETS } from './local-credentials.ts';
import { findProgram } from './prerequisites.ts';
import { freePort, portAnswers, portSetting, ServiceGroup } from './service-group.ts';

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
  fleet:roll\` restarts the BFF instances one at a time (through a control socket named by the port). Needs nginx,
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
  bffs: [await freePort(), await freePort()],
  bffMetrics: [await freePort(), await freePort()],
  prometheus: portSetting('WAYFARE_FLEET_PROMETHEUS_PORT', undefined) ?? (await freePort()),
};
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
  // Side by side: each instance takes its own seconds to start on a busy machine.
  await Promise.all(
    ports.bffs.map((port, index) =>
      group.start(
        {
          name: `bff-${index + 1}`,
          args: [path.join(root, 'bff/server.ts')],
          port,
          env: {
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            PUBLIC_ORIGIN: appOrigin,
            // nginx's own address: the instances believe X-Forwarded-For (the address nginx saw) from it only.
            TRUST_PROXY: '127.0.0.1',
            DATA_DIR: path.join(dataDir, `bff-${index + 1}`),
            WEB_DIST_DIR: webDist,
            TRAVEL_API_URL: `https://localhost:${ports.travelApi}`,
            TRAVEL_API_CA_FILE: path.join(travelApiData, 'tls', 'ca.pem'),
            ...bffCredentialsEnv(issuer, demo),
            ...redis.env,
            SESSION_ENCRYPTION_KEYS: secrets.sessionKeys,
            VAPID_PUBLIC_KEY: secrets.vapid.publicKey,
            VAPID_PRIVATE_KEY: secrets.vapid.privateKey,
            METRICS_HOST: '127.0.0.1',
            METRICS_PORT: String(ports.bffMetrics[index]),
          },
        },
        NODE_START_TIMEOUT_MS,
      ),
    ),
  );

  // Prometheus scrapes every instance and the travel API, with the alert rules (docs/operations.md).
  const prometheusDir = path.join(dataDir, 'prometheus');
  await mkdir(prometheusDir, { mode: 0o755 });
  const prometheusConfig = path.join(prometheusDir, 'prometheus.yml');
  await writeFile(
    prometheusConfig,
    fleetPrometheusConfig({
      bffMetricsPorts: ports.bffMetrics,
      travelApiPort: ports.travelApi,
      travelApiCaFile: path.join(travelApiData, 'tls', 'ca.pem'),
      rulesFile: path.join(root, 'ops/prometheus/alerts.yml'),
      intervalSeconds: 2,
    }),
  );
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
  await writeFile(
    config,
    fleetNginxConfig({
      example: await readFile(path.join(root, 'docs/scale-out-nginx.conf'), 'utf8'),
      frontPort,
      bffPorts: ports.bffs,
      certFile: front.certFile,
      keyFile: front.keyFile,
      runDir,
    }),
  );
  await group.start({
    name: 'nginx',
    command: nginx,
    args: ['-p', runDir, '-c', config, '-e', 'stderr'],
    port: frontPort,
    env: {},
  });
  // `npm run fleet:roll`: each instance drains and restarts, the next once this one is ready again and
  // the front sends it requests.
  const frontCa = await readFile(front.caFile, 'utf8');
  control = await serveFleetControl(fleetControlPath(frontPort), async (say) => {
    for (const [index, port] of ports.bffs.entries()) {
      const name = `bff-${index + 1}`;
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
  });
  for (const line of fleetSummary({
    appOrigin,
    frontCaFile: front.caFile,
    bffs: ports.bffs.map((port, index) => ({ port, metricsPort: ports.bffMetrics[index] as number })),
    travelApiOrigin: `https://localhost:${ports.travelApi}`,
    travelApiCaFile: path.join(travelApiData, 'tls', 'ca.pem'),
    identityOrigin: issuer,
    redis: { primary: ports.redis.primary, replica: ports.redis.replica, sentinels: redis.sentinels },
    redisDir,
    prometheusOrigin: `http://127.0.0.1:${ports.prometheus}`,
    demo,
  }))
    console.log(line);
  if (stateFile !== undefined) {
    await writeFleetState(stateFile, {
      dataDir,
      frontPort,
      bffPorts: ports.bffs,
      nginx: { program: nginx as string, runDir, config },
      redis: { sentinelPorts: ports.redis.sentinels, env: redis.env, downAfterMs: FLEET_DOWN_AFTER_MS },
    });
  }
  console.log(
    `[fleet] rolling restart of the BFF instances: npm run fleet:roll${frontPort === 8443 ? '' : ` with WAYFARE_FLEET_PORT=${frontPort}`} (control socket ${fleetControlPath(frontPort)})`,
  );
  console.log(`Wayfare fleet is ready at ${appOrigin}${demo ? ' (demo mode)' : ''}`);
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
