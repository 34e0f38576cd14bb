/**
 * The Chromium the suite drives, found by scripts/find-browser.mjs (shared with ensure-browser.mjs).
 * That module is plain JavaScript without declarations, so its shape is stated here once.
 */
interface FindBrowserModule {
  CHROMIUM_ARGS: string[];
  findBrowser: () => Promise<{ kind: 'configured' | 'system' | 'managed'; executablePath?: string } | null>;
}

const findBrowserModule = '../../scripts/find-browser.mjs';
const { CHROMIUM_ARGS, findBrowser } = (await import(findBrowserModule)) as FindBrowserModule;

/** Launch options: the found executable when there is one, else Playwright's managed browser. */
export async function chromiumLaunchOptions(): Promise<{ args: string[]; executablePath?: string }> {
  const browser = await findBrowser();
  return browser?.executablePath
    ? { args: CHROMIUM_ARGS, executablePath: browser.executablePath }
    : { args: CHROMIUM_ARGS };
}

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
