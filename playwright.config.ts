import { defineConfig, devices } from '@playwright/test';
import { APP_ORIGIN } from './e2e/support/stack.ts';
import { chromiumLaunchOptions } from './e2e/support/browser.ts';

/** The journeys that must also work on a phone carry this tag. */
export const PHONE_TAG = '@phone';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 45_000,
  expect: { timeout: 8_000 },
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: APP_ORIGIN,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    launchOptions: await chromiumLaunchOptions(),
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'phone',
      grep: new RegExp(PHONE_TAG),
      use: {
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
      },
    },
  ],
  webServer: {
    command: 'node e2e/support/start-stack.ts',
    wait: { stdout: /Wayfare is ready at http:\/\/localhost:\d+/ },
    timeout: 60_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
