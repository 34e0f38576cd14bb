import { defineConfig, devices } from '@playwright/test';
import { FLEET_ORIGIN } from './e2e/support/stack.ts';
import { suiteUse } from './e2e/support/browser.ts';

/**
 * The fleet journeys: a browser through nginx (TLS, HTTP/2) in front of two BFF instances on Redis, as
 * `npm run start:fleet` runs them. The front's certificate is signed by a local authority the fleet
 * makes per run, so this project (and only this one) tells the browser to accept it.
 */
export default defineConfig({
  testDir: './e2e/fleet',
  testMatch: '**/*.fleet.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  // A bound for a run that hangs, not a speed claim: each journey has its own timeout, and these run
  // alongside the other journeys (scripts/test-all.ts), on a machine that may be loaded. The fault
  // journeys start and drain instances (about 2.5 minutes each on a loaded two-core machine).
  globalTimeout: 20 * 60_000,
  expect: { timeout: 15_000 },
  // A folder of its own (Playwright empties it when it starts): the journeys that run one at a time run
  // beside this suite (scripts/test-all.ts).
  outputDir: 'test-results/fleet',
  reporter: [['list']],
  use: {
    baseURL: FLEET_ORIGIN,
    ...(await suiteUse()),
    // Through the front, the service worker is part of what a browser gets: it stays on.
    serviceWorkers: 'allow',
    ignoreHTTPSErrors: true,
  },
  projects: [
    {
      name: 'fleet',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: 'node e2e/support/start-fleet-stack.ts',
    wait: { stdout: /Wayfare fleet is ready at https:\/\/localhost:\d+/ },
    // A bound for a start that hangs: on a loaded two-core machine each Node service takes up to 20 s.
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
