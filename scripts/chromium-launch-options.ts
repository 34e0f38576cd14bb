/**
 * How the screenshots and the end-to-end suites launch Chromium: the browser scripts/find-browser.mjs finds
 * (shared with ensure-browser.mjs).
 */
import { CHROMIUM_ARGS, findBrowser } from './find-browser.mjs';

/** Launch options: the found executable when there is one, else Playwright's managed browser. */
export async function chromiumLaunchOptions(): Promise<{ args: string[]; executablePath?: string }> {
  const browser = await findBrowser();
  return browser?.executablePath
    ? { args: CHROMIUM_ARGS, executablePath: browser.executablePath }
    : { args: CHROMIUM_ARGS };
}
