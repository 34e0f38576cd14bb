import { chromiumLaunchOptions } from '../../scripts/chromium-launch-options.ts';

/** What every page of the suites runs with (each config adds its baseURL and its own exceptions). */
export async function suiteUse() {
  return {
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    launchOptions: await chromiumLaunchOptions(),
  } as const;
}
