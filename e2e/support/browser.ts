import { chromiumLaunchOptions } from '../../scripts/chromium-launch-options.ts';

/** What every page of the suites runs with (each config adds its baseURL and its own exceptions). */
export async function suiteUse() {
  return {
    headless: true,
    // Recording a trace costs every journey its DOM snapshots (about a third more CPU over the run, the
    // runs of docs/testing.md), failed or not: a failure keeps its screenshot and page snapshot, and
    // `--trace retain-on-failure` (or `on`) records traces when looking into one.
    trace: 'off',
    // The app's service worker precaches the whole app shell in every new browser context, the CPU of a
    // second page load for each journey. The journeys of what it does (offline reading, push, sign-out
    // clearing the browser, the shell's files, the start page's code) allow it: `e2e/README.md`.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    launchOptions: await chromiumLaunchOptions(),
  } as const;
}

/**
 * The full Chromium, for the journeys of what only it has: system notifications, which Chromium's headless
 * shell (where every other journey runs, scripts/find-browser.mjs) has no platform for, so the app offers
 * no alerts there. A file that uses it runs in a worker of its own.
 */
export function fullBrowserLaunchOptions() {
  return chromiumLaunchOptions({ build: 'full' });
}
