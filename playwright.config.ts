import { defineConfig, devices } from '@playwright/test';
import { APP_ORIGIN } from './e2e/support/stack.ts';
import { ALONE, PHONE, STACK_WIDE } from './e2e/support/tags.ts';

/**
 * The journeys that run one at a time (e2e/support/tags.ts): after the rest on the same stack, or, in
 * `npm test`, beside them on a stack of their own (`--no-deps` and other ports, scripts/test-all.ts).
 */
const ONE_AT_A_TIME = new RegExp(`${STACK_WIDE}|${ALONE}`);
import { suiteUse } from './e2e/support/browser.ts';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // What a failure leaves (screenshot, page snapshot): a folder per suite, since Playwright empties it when
  // it starts and the fleet's suite runs beside the journeys that run one at a time.
  outputDir: 'test-results/journeys',
  reporter: [['list'], ['html', { open: 'never' }]],
  // The end of each run names the ten slowest files (over 20 s): where to look when the suite grows slower.
  reportSlowTests: { max: 10, threshold: 20_000 },
  use: {
    baseURL: APP_ORIGIN,
    ...(await suiteUse()),
  },
  projects: [
    {
      name: 'desktop',
      grepInvert: ONE_AT_A_TIME,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'phone',
      grep: new RegExp(PHONE),
      grepInvert: ONE_AT_A_TIME,
      use: {
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
      },
    },
    {
      // Faults and the announced version apply to the whole stack, and ten tabs take both cores: these
      // run one at a time, after the rest (in `npm test`, on a stack of their own beside them).
      name: 'one-at-a-time',
      grep: ONE_AT_A_TIME,
      dependencies: ['desktop', 'phone'],
      workers: 1,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: 'node e2e/support/start-stack.ts',
    wait: { stdout: /Wayfare is ready at http:\/\/localhost:\d+/ },
    // A bound for a start that hangs, not a speed claim: on a loaded two-core machine each of the three
    // Node services can take well over 20 s to start.
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
