/**
 * Starts the fleet the way an operator does (`npm run start:fleet`), on the fleet journeys' ports, serving
 * a snapshot of the built SPA. The fleet's folder (certificates, Redis, nginx) is its own and goes with it.
 * Playwright runs this as the webServer of playwright.fleet.config.ts and sends SIGTERM at the end.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FLEET } from './stack.ts';

const snapshotDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-e2e-fleet-web-'));
const builtWeb = path.resolve('dist/web');
if (existsSync(builtWeb)) cpSync(builtWeb, snapshotDir, { recursive: true });

const fleet = spawn(process.execPath, ['scripts/start-fleet.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    WAYFARE_FLEET_PORT: String(FLEET.frontPort),
    WAYFARE_FLEET_TRAVEL_API_PORT: String(FLEET.travelApiPort),
    WAYFARE_FLEET_IDENTITY_PORT: String(FLEET.identityPort),
    WAYFARE_FLEET_PROMETHEUS_PORT: String(FLEET.prometheusPort),
    WAYFARE_DEMO: '1',
    WEB_DIST_DIR: snapshotDir,
  },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => fleet.kill(signal));
}

fleet.on('exit', (code, signal) => {
  rmSync(snapshotDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 0 : 1));
});
