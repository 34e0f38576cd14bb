// Starts the whole app on its embedded defaults: the identity stand-in, the travel API stand-in and the
// BFF serving the built SPA (or, with --dev, Vite's dev server in front of it), each as its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleLineFormatter } from './console-lines.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > 65535) {
    console.error(`${name} must be a port number, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

function numberOrZero(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a whole number of seconds, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const ports = {
  bff: numberFrom('WAYFARE_BFF_PORT', 3000),
  travelApi: numberFrom('WAYFARE_TRAVEL_API_PORT', 4010),
  identity: numberFrom('WAYFARE_IDENTITY_PORT', 4020),
  vite: numberFrom('WAYFARE_VITE_PORT', 5173),
};
const dataDir = path.resolve(root, process.env.WAYFARE_DATA_DIR ?? '.data');
const demo = (process.env.WAYFARE_DEMO ?? '1') !== '0';
const demoEventsSeconds = numberOrZero('WAYFARE_DEMO_EVENTS_SECONDS', 180);

const appOrigin = `http://localhost:${dev ? ports.vite : ports.bff}`;
const bffOrigin = `http://localhost:${ports.bff}`;
const travelApiUrl = `http://localhost:${ports.travelApi}`;
const issuer = `http://localhost:${ports.identity}`;
const audience = 'urn:wayfare:travel-api';
// Embedded-only credentials shared by the local processes; production sets its own through the environment.
const secrets = {
  consumerSlug: 'wayfare-web',
  consumer: process.env.WAYFARE_CONSUMER_SECRET ?? 'dev-consumer-secret-change-me-0001',
  bffClient: process.env.WAYFARE_BFF_CLIENT_SECRET ?? 'dev-bff-client-secret-change-me-0001',
  pushWebhook: process.env.WAYFARE_PUSH_WEBHOOK_SECRET ?? 'dev-push-webhook-secret-change-me-01',
  admin: 'dev-admin-token-change-me-00001',
};

interface Service {
  name: string;
  entry: string;
  port: number;
  env: Record<string, string>;
  command?: string[];
}

const services: Service[] = [
  {
    name: 'identity',
    entry: 'upstream/identity/server.ts',
    port: ports.identity,
    env: {
      IDENTITY_PORT: String(ports.identity),
      IDENTITY_ISSUER: issuer,
      IDENTITY_DATA_DIR: path.join(dataDir, 'identity'),
      IDENTITY_BFF_CLIENT_SECRET: secrets.bffClient,
      IDENTITY_BFF_ORIGIN: appOrigin,
      IDENTITY_DEMO_MODE: String(demo),
      TRAVEL_API_AUDIENCE: audience,
    },
  },
  {
    name: 'travel-api',
    entry: 'upstream/travel-api/server.ts',
    port: ports.travelApi,
    env: {
      TRAVEL_API_PORT: String(ports.travelApi),
      TRAVEL_API_DATA_DIR: path.join(dataDir, 'travel-api'),
      IDENTITY_ISSUER: issuer,
      TRAVEL_API_AUDIENCE: audience,
      TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: secrets.consumerSlug,
      TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: secrets.consumer,
      TRAVEL_API_PUSH_WEBHOOK_URL: `${bffOrigin}/webhooks/travel-api/push`,
      TRAVEL_API_PUSH_WEBHOOK_SECRET: secrets.pushWebhook,
      ...(demo
        ? {
            TRAVEL_API_ADMIN_TOKEN: secrets.admin,
            TRAVEL_API_DEMO_EVENTS_INTERVAL_SECONDS: String(demoEventsSeconds),
          }
        : {}),
    },
  },
  {
    name: 'bff',
    entry: 'bff/server.ts',
    port: ports.bff,
    env: {
      NODE_ENV: dev ? 'development' : 'production',
      PORT: String(ports.bff),
      PUBLIC_ORIGIN: appOrigin,
      DATA_DIR: path.join(dataDir, 'bff'),
      TRAVEL_API_URL: travelApiUrl,
      CONSUMER_SLUG: secrets.consumerSlug,
      CONSUMER_SECRET: secrets.consumer,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_SECRET: secrets.bffClient,
      TRAVEL_API_AUDIENCE: audience,
      PUSH_WEBHOOK_SECRET: secrets.pushWebhook,
      DEMO_MODE: String(demo),
      ...(demo ? { TRAVEL_API_ADMIN_TOKEN: secrets.admin } : {}),
      ...(dev ? { WEB_DIST_DIR: path.join(dataDir, 'no-dist-in-dev') } : {}),
    },
  },
];
if (dev) {
  services.push({
    name: 'vite',
    entry: 'vite.config.ts',
    port: ports.vite,
    env: { BFF_ORIGIN: bffOrigin },
    command: [
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      '--port',
      String(ports.vite),
      '--strictPort',
    ],
  });
}

const children = new Map<string, ChildProcess>();
let stopping = false;

const formatLine = consoleLineFormatter({
  json: process.env.WAYFARE_LOG_FORMAT === 'json',
  colorize: Boolean(process.stdout.isTTY),
});

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WritableStream): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${formatLine(line)}`);
  });
  stream.on('end', () => {
    if (pending) out.write(`[${name}] ${formatLine(pending)}`);
  });
}

function startService(service: Service): ChildProcess {
  const args = service.command ?? [path.join(root, service.entry)];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prefixLines(service.name, child.stdout, process.stdout);
  prefixLines(service.name, child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (!stopping) {
      console.error(`[start] ${service.name} exited (${signal ?? `code ${code}`}); stopping the others.`);
      void stopAll(1);
    }
  });
  children.set(service.name, child);
  return child;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: 'localhost', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPort(service: Service, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!children.has(service.name)) throw new Error(`${service.name} exited before it was ready`);
    if (await portAnswers(service.port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${service.name} did not listen on port ${service.port} within ${timeoutMs / 1000} s`);
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const exits = [...children.values()].map(
    (child) =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 8_000).unref();
      }),
  );
  await Promise.all(exits);
  process.exit(exitCode);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const present = services.filter((service) => existsSync(path.join(root, service.entry)));
  const missing = services.filter((service) => !present.includes(service));
  for (const service of missing)
    console.log(`[start] ${service.name} is not part of this checkout yet: not started.`);
  if (!dev && !existsSync(path.join(root, 'dist', 'web', 'index.html'))) {
    console.log('[start] dist/web is missing: run `npm run build` (npm start does) to serve the app.');
  }
  for (const service of present) {
    startService(service);
    await waitForPort(service, 20_000);
    console.log(`[start] ${service.name} is listening on http://localhost:${service.port}`);
  }
  if (present.some((service) => service.name === 'bff')) {
    console.log(`Wayfare is ready at ${appOrigin}${demo ? ' (demo mode)' : ''}`);
  }
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
