/**
 * How the screenshots and the end-to-end suites launch Chromium: the browser scripts/find-browser.mjs finds
 * (shared with ensure-browser.mjs). That module is plain JavaScript without declarations, so its shape is
 * stated here once.
 */
interface FindBrowserModule {
  CHROMIUM_ARGS: string[];
  findBrowser: () => Promise<{ kind: 'configured' | 'system' | 'managed'; executablePath?: string } | null>;
}

const findBrowserModule = './find-browser.mjs';
const { CHROMIUM_ARGS, findBrowser } = (await import(findBrowserModule)) as FindBrowserModule;

/** Launch options: the found executable when there is one, else Playwright's managed browser. */
export async function chromiumLaunchOptions(): Promise<{ args: string[]; executablePath?: string }> {
  const browser = await findBrowser();
  return browser?.executablePath
    ? { args: CHROMIUM_ARGS, executablePath: browser.executablePath }
    : { args: CHROMIUM_ARGS };
}
