// Where a Chromium for the end-to-end tests is: CHROMIUM_PATH, the system's, or Playwright's managed one.
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`; the binary itself, not the shell script
 * in /usr/bin that runs it): the browser without the browser's own interface and profile services, which
 * is what Playwright itself runs headless journeys in (its managed `chromium-headless-shell`). The same
 * journeys took about a quarter less CPU in it than in the full Chromium (docs/testing.md).
 */
const SYSTEM_HEADLESS_SHELLS = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
];

/**
 * The features Playwright turns off in every Chromium it launches (chromiumSwitches.ts of playwright-core),
 * repeated because Chromium reads only the last `--disable-features` of its command line, and ours comes
 * after Playwright's. scripts/find-browser.test.ts fails when Playwright's list has a feature this one lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium's omnibox popup is a page of its own interface (a "top chrome" WebUI) that it loads in a
 * renderer of its own for every window, so for every browser context a journey opens, though a headless
 * browser never shows it: 12-20% of the CPU of 28 journeys measured back to back (docs/testing.md).
 */
export const UNSEEN_INTERFACE_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_INTERFACE_FEATURES].join(',')}`,
];

/**
 * Where the system's Chromium may be, first choice first: for `build` 'shell', its headless shell, then the
 * full browser; for 'full', only the full browser.
 * @param {'shell' | 'full'} build
 */
export function systemCandidates(build) {
  return build === 'shell' ? [...SYSTEM_HEADLESS_SHELLS, ...SYSTEM_CHROMIUMS] : [...SYSTEM_CHROMIUMS];
}

/**
 * `build`: 'shell', the headless shell where there is one (else the full browser); 'full', the full
 * browser, for what only it has, such as system notifications. CHROMIUM_PATH, when set, is used for both.
 * @param {{ build?: 'shell' | 'full' }} [options]
 * @returns {Promise<{ kind: 'configured' | 'system' | 'managed', executablePath?: string } | null>}
 */
export async function findBrowser({ build = 'shell' } = {}) {
  if (process.env.CHROMIUM_PATH) return { kind: 'configured', executablePath: process.env.CHROMIUM_PATH };
  const system = systemCandidates(build).find((candidate) => existsSync(candidate));
  if (system) return { kind: 'system', executablePath: system };
  try {
    const { chromium } = await import('@playwright/test');
    if (existsSync(chromium.executablePath())) return { kind: 'managed' };
  } catch {
    // Playwright is not installed yet: no managed browser either.
  }
  return null;
}
