// Where a Chromium for the end-to-end tests is: CHROMIUM_PATH, the system's, or Playwright's managed one.
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
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
