// Where a Chromium for the end-to-end tests is: CHROMIUM_PATH, the system's, or Playwright's managed one.
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

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

/** @returns {Promise<{ kind: 'configured' | 'system' | 'managed', executablePath?: string } | null>} */
export async function findBrowser() {
  if (process.env.CHROMIUM_PATH) return { kind: 'configured', executablePath: process.env.CHROMIUM_PATH };
  const system = SYSTEM_CHROMIUMS.find((candidate) => existsSync(candidate));
  if (system) return { kind: 'system', executablePath: system };
  try {
    const { chromium } = await import('@playwright/test');
    if (existsSync(chromium.executablePath())) return { kind: 'managed' };
  } catch {
    // Playwright is not installed yet: no managed browser either.
  }
  return null;
}
