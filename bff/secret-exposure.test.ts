import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, formAction, TestBrowser } from './test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from './test-support/gateway-stack.ts';

const CONSUMER_SECRET = 'exposure-test-consumer-secret-7f3a9c';
const OIDC_CLIENT_SECRET = 'dev-bff-client-secret-change-me-0001';

/** A browser that keeps every response it receives: status line, headers and body. */
class RecordingBrowser extends TestBrowser {
  readonly seen: string[] = [];

  override async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await super.fetch(url, init);
    const headers = [...response.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
    this.seen.push(`${response.status} ${url}\n${headers}\n\n${await response.clone().text()}`);
    return response;
  }
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('secrets and tokens never reach the browser, the logs or the SPA bundle', () => {
  let stack: GatewayStack;
  let traveler: RecordingBrowser;
  let guest: RecordingBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack({
      bffEnv: { CONSUMER_SECRET, NODE_ENV: 'development' },
      travelApiEnv: { TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: CONSUMER_SECRET },
    });
    const aliases = new Map([[APP_ORIGIN, stack.bffUrl]]);
    traveler = new RecordingBrowser(aliases);
    guest = new RecordingBrowser(aliases);

    const login = await traveler.navigate('/auth/login?returnTo=%2Fbookings');
    const form = new URL(formAction(await login.final.text()), login.url).href;
    await traveler.navigate(form, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'jordan@wayfare.example', password: 'jordan-demo' }).toString(),
    });

    const call = (browser: TestBrowser, method: string, url: string, body?: unknown) =>
      browser.fetch(url, {
        method,
        headers: { 'x-requested-with': 'wayfare', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const inThirtyDays = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await call(traveler, 'GET', '/api/session');
    await call(traveler, 'GET', '/api/profile');
    await call(traveler, 'POST', '/api/flights/search', {
      itinerary: [{ origin: 'LHR', destination: 'CDG', date: inThirtyDays }],
      passengers: { adults: 2 },
      cabinClass: 'business',
    });
    await call(traveler, 'POST', '/api/flights/search', { itinerary: 'nowhere' });
    await call(traveler, 'GET', '/api/bookings?limit=50');
    await call(traveler, 'GET', '/api/notifications');
    await call(traveler, 'GET', '/api/app/update-check');
    await call(traveler, 'GET', '/api/docs/json');
    await call(traveler, 'GET', '/healthz');
    await call(traveler, 'GET', '/readyz');
    await call(guest, 'POST', '/api/guest-session');
    await call(guest, 'GET', '/api/session');
  });

  afterAll(async () => {
    await stack.close();
  });

  async function secretsInPlay(): Promise<Map<string, string>> {
    const secrets = new Map([
      ['consumer secret', CONSUMER_SECRET],
      ['OIDC client secret', OIDC_CLIENT_SECRET],
      ['admin token', stack.app.config.TRAVEL_API_ADMIN_TOKEN ?? ''],
    ]);
    for (const [label, browser] of [
      ['traveler', traveler],
      ['guest', guest],
    ] as const) {
      const sessionId = browser.cookie(APP_ORIGIN, stack.app.sessions.cookie.name) ?? '';
      const session = await stack.app.sessions.store.get(sessionId);
      for (const [field, value] of Object.entries(session ?? {})) {
        if (/token/i.test(field) && typeof value === 'string' && value.length >= 16) {
          secrets.set(`${label} ${field}`, value);
        }
      }
    }
    for (const request of stack.tap.seen) {
      const signature = request.headers['service-signature'];
      if (typeof signature === 'string') secrets.set('a request signature', signature);
    }
    return secrets;
  }

  it('knows the tokens it looks for', async () => {
    const labels = [...(await secretsInPlay()).keys()];
    expect(labels).toEqual(
      expect.arrayContaining([
        'traveler accessToken',
        'traveler refreshToken',
        'guest guestToken',
        'a request signature',
      ]),
    );
  });

  it('sends none of them in a response body or header', async () => {
    const responses = [...traveler.seen, ...guest.seen].join('\n');
    expect(traveler.seen.length).toBeGreaterThan(10);
    for (const [label, secret] of await secretsInPlay()) {
      expect(responses.includes(secret), `${label} in a response`).toBe(false);
    }
  });

  it('writes none of them to a log line', async () => {
    const logs = stack.bffLogs.join('\n');
    expect(stack.bffLogs.length).toBeGreaterThan(20);
    for (const [label, secret] of await secretsInPlay()) {
      expect(logs.includes(secret), `${label} in the log`).toBe(false);
    }
  });

  it(
    'builds none of them into the SPA, even with every secret in the build environment',
    { timeout: 120_000 },
    async () => {
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-spa-'));
      const secrets = await secretsInPlay();
      const saved = { ...process.env };
      Object.assign(process.env, {
        CONSUMER_SECRET,
        OIDC_CLIENT_SECRET,
        VITE_CONSUMER_SECRET: CONSUMER_SECRET,
        TRAVEL_API_ADMIN_TOKEN: secrets.get('admin token'),
      });
      try {
        await build({
          configFile: path.resolve(import.meta.dirname, '../vite.config.ts'),
          logLevel: 'silent',
          build: { outDir, emptyOutDir: true },
        });
        const files = await filesUnder(outDir);
        expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
        for (const file of files) {
          const content = await readFile(file, 'utf8');
          for (const [label, secret] of secrets) {
            expect(content.includes(secret), `${label} in ${path.relative(outDir, file)}`).toBe(false);
          }
        }
      } finally {
        process.env = saved;
        await rm(outDir, { recursive: true, force: true });
      }
    },
  );
});
