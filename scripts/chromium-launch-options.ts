/**
 * How the screenshots and the end-to-end suites launch Chromium: the browser scripts/find-browser.mjs finds
 * (shared with ensure-browser.mjs).
 */
import { CHROMIUM_ARGS, findBrowser } from './find-browser.mjs';

export interface ChromiumLaunchOptions {
  args: string[];
  executablePath?: string;
  /** Playwright's managed full Chromium ('chromium') instead of its headless shell. */
  channel?: 'chromium';
}

/**
 * Launch options: the found executable when there is one, else Playwright's managed browser. `build`:
 * the headless shell where there is one (the default), or the full browser (find-browser.mjs).
 */
export async function chromiumLaunchOptions({
  build = 'shell',
}: { build?: 'shell' | 'full' } = {}): Promise<ChromiumLaunchOptions> {
  const browser = await findBrowser({ build });
  if (browser?.executablePath) return { args: CHROMIUM_ARGS, executablePath: browser.executablePath };
  return build === 'full' ? { args: CHROMIUM_ARGS, channel: 'chromium' } : { args: CHROMIUM_ARGS };
}
