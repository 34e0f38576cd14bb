/**
 * Starts the fleet the way an operator does (`npm run start:fleet`), on the fleet journeys' ports, serving
 * a snapshot of the built SPA. The fleet's folder (certificates, Redis, nginx) is its own and goes with it.
 * Every BFF instance and the travel API export their traces (each one kept) to the OTLP receiver started
 * here, which also reads the travel API's log lines from the fleet's console (otlp-receiver.ts).
 * Playwright runs this as the webServer of playwright.fleet.config.ts and sends SIGTERM at the end.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { OtlpReceiver } from './otlp-receiver.ts';
import { FLEET, FLEET_OTLP_ORIGIN, FLEET_STATE_FILE } from './stack.ts';

const snapshotDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-e2e-fleet-web-'));
const builtWeb = path.resolve('dist/web');
if (existsSync(builtWeb)) cpSync(builtWeb, snapshotDir, { recursive: true });

const receiver = new OtlpReceiver();
await receiver.listen(FLEET.otlpPort);

const fleet = spawn(process.execPath, ['scripts/start-fleet.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    WAYFARE_FLEET_PORT: String(FLEET.frontPort),
    WAYFARE_FLEET_TRAVEL_API_PORT: String(FLEET.travelApiPort),
    WAYFARE_FLEET_IDENTITY_PORT: String(FLEET.identityPort),
    WAYFARE_FLEET_PROMETHEUS_PORT: String(FLEET.prometheusPort),
    WAYFARE_DEMO: '1',
    // The fault journeys find Redis, the instances and nginx's configuration through it.
    WAYFARE_FLEET_STATE_FILE: FLEET_STATE_FILE,
    WEB_DIST_DIR: snapshotDir,
    // The services' pino lines as they are, for the receiver to read.
    WAYFARE_LOG_FORMAT: 'json',
    OTEL_EXPORTER_OTLP_ENDPOINT: FLEET_OTLP_ORIGIN,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '1',
    // A batch leaves within half a second, so that the journey reads a trace soon after its call.
    OTEL_BSP_SCHEDULE_DELAY: '500',
  },
});

createInterface({ input: fleet.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  receiver.keepConsoleLine(line);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => fleet.kill(signal));
}

fleet.on('exit', (code, signal) => {
  rmSync(snapshotDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 0 : 1));
});
