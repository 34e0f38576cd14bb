#!/usr/bin/env node
// Makes sure the screenshots have a full Chromium: configured, system, Playwright's managed one
// (downloaded where the network allows), or Debian's package when running as root on apt.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findBrowser } from './find-browser.mjs';

const quietly = (command, args) =>
  spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] }).status === 0;

async function main() {
  if (await findBrowser({ build: 'full' })) return;
  console.log("No Chromium found: trying Playwright's managed browser download.");
  if (quietly('npx', ['playwright', 'install', 'chromium']) && (await findBrowser({ build: 'full' }))) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    console.log("Installing Debian's chromium package through apt.");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (await findBrowser({ build: 'full' })) return;
  }
  console.error(
    'No browser for the end-to-end tests: run `npx playwright install chromium` (or set CHROMIUM_PATH).',
  );
  process.exit(1);
}

await main();
