// Starts the whole app on its embedded defaults: the identity stand-in, the travel API stand-in and the
// BFF serving the built SPA (or, with --dev, Vite's dev server in front of it), each as its own process.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bffCredentialsEnv, LOCAL_AUDIENCE, LOCAL_SECRETS } from './local-credentials.ts';
import { portSetting, ServiceGroup } from './service-group.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');

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
  bff: portSetting('WAYFARE_BFF_PORT', 3000),
  travelApi: portSetting('WAYFARE_TRAVEL_API_PORT', 4010),
  identity: portSetting('WAYFARE_IDENTITY_PORT', 4020),
  vite: portSetting('WAYFARE_VITE_PORT', 5173),
};
const dataDir = path.resolve(root, process.env.WAYFARE_DATA_DIR ?? '.data');
const demo = (process.env.WAYFARE_DEMO ?? '1') !== '0';
const demoEventsSeconds = numberOrZero('WAYFARE_DEMO_EVENTS_SECONDS', 180);

// The origin the browser uses: the BFF's own (or Vite's), unless a TLS front put before the BFF serves it
// at another (WAYFARE_PUBLIC_ORIGIN, such as https://localhost:8443: the Lighthouse benchmark puts nginx's
// front of docs/scale-out-nginx.conf there); the BFF then believes that front's forwarded addresses.
const publicOrigin = process.env.WAYFARE_PUBLIC_ORIGIN?.trim() || undefined;
const appOrigin = publicOrigin ?? `http://localhost:${dev ? ports.vite : ports.bff}`;
const bffOrigin = `http://localhost:${ports.bff}`;
const travelApiUrl = `http://localhost:${ports.travelApi}`;
const issuer = `http://localhost:${ports.identity}`;
const audience = LOCAL_AUDIENCE;
const secrets = LOCAL_SECRETS;

interface StackService {
  name: string;
  entry: string;
  port: number;
  env: Record<string, string>;
  command?: string[];
}

const services: StackService[] = [
  {
    name: 'identity',
    entry: 'upstream/identity/run-identity.ts',
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
    entry: 'upstream/travel-api/run-travel-api.ts',
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
      ...(publicOrigin === undefined ? {} : { TRUST_PROXY: '127.0.0.1' }),
      DATA_DIR: path.join(dataDir, 'bff'),
      TRAVEL_API_URL: travelApiUrl,
      ...bffCredentialsEnv(issuer, demo),
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

const { group, stop: stopAll } = ServiceGroup.forCommand(root, 'start');

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
    const { name, port, env, command } = service;
    await group.start({ name, port, env, args: command ?? [path.join(root, service.entry)] });
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
