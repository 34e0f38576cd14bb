/**
 * Starts the whole stack the way a traveler's operator does (`node scripts/start.ts`), on the suite's
 * ports, with a fresh data folder that is removed when the stack stops. Playwright runs this as its
 * webServer and sends SIGTERM to the process group at the end of the run.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STACK } from './stack.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-e2e-'));
const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });

// The BFF serves a snapshot of the built SPA, so a rebuild of dist/web during the run cannot swap the
// hashed chunks out from under a page that is already loaded.
const builtWeb = path.resolve('dist/web');
const webSnapshot = path.join(dataDir, 'web');
if (existsSync(builtWeb)) cpSync(builtWeb, webSnapshot, { recursive: true });

const stack = spawn(process.execPath, ['scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    WAYFARE_BFF_PORT: String(STACK.bffPort),
    WAYFARE_TRAVEL_API_PORT: String(STACK.travelApiPort),
    WAYFARE_IDENTITY_PORT: String(STACK.identityPort),
    WAYFARE_DATA_DIR: dataDir,
    WAYFARE_DEMO: '1',
    // Journeys raise their own travel events; timed demo events would add notifications they did not expect.
    WAYFARE_DEMO_EVENTS_SECONDS: '0',
    // Two test travelers run every journey, searching many times faster than a traveler does: the
    // travel API's search quota (60 a minute per traveler, a stay search spends one per hotel priced)
    // would cut the pricing of later journeys short. The quota's own behaviour is proven with the
    // rate-limit lever, which sets a quota of its own.
    TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '1000',
    // No pause between a stay stream's events (docs/decisions.md: 120 ms for a demo's eye, 0 in tests): the
    // journeys that watch hotels arrive one by one hold each event back with the latency fault themselves.
    TRAVEL_API_STREAM_PACE_MS: '0',
    WEB_DIST_DIR: webSnapshot,
    // The browsers' push service in the journeys is a stand-in on loopback (e2e/support/push-service.ts):
    // its origin allowed, and loopback allowed, a development setting.
    PUSH_ENDPOINT_ORIGINS: `http://127.0.0.1:${STACK.pushServicePort}`,
    PUSH_ENDPOINT_ALLOW_LOOPBACK: 'true',
    // The servers' log lines as they write them (pino JSON): Playwright reads this console only for the
    // ready line (playwright.config.ts ignores the rest), so drawing each line readable was work for no one.
    WAYFARE_LOG_FORMAT: 'json',
  },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => stack.kill(signal));
}

stack.on('exit', (code, signal) => {
  removeDataDir();
  process.exit(code ?? (signal ? 0 : 1));
});
