import { chromiumLaunchOptions } from '../../scripts/chromium-launch-options.ts';

/** What every page of the suites runs with (each config adds its baseURL and its own exceptions). */
export async function suiteUse() {
  return {
    headless: true,
    // Recording a trace costs every journey its DOM snapshots (about a third more CPU over the run, the
    // runs of docs/testing.md), failed or not: a failure keeps its screenshot and page snapshot, and
    // `--trace retain-on-failure` (or `on`) records traces when looking into one.
    trace: 'off',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    launchOptions: await chromiumLaunchOptions(),
  } as const;
}
