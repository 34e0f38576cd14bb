import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, systemCandidates, UNSEEN_INTERFACE_FEATURES } from './find-browser.mjs';

const folder = mkdtempSync(path.join(os.tmpdir(), 'wayfare-chromium-args-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * The command line Playwright gives a Chromium launched with the suites' arguments, read by launching a
 * stand-in executable that writes its arguments down and exits (so no browser is needed).
 */
async function commandLine(): Promise<string[]> {
  const written = path.join(folder, 'arguments');
  const executable = path.join(folder, 'chromium');
  writeFileSync(executable, `#!/bin/sh\nprintf '%s\\n' "$@" > '${written}'\nexit 1\n`);
  chmodSync(executable, 0o755);
  await expect(
    chromium.launch({ executablePath: executable, args: CHROMIUM_ARGS, headless: true, timeout: 10_000 }),
  ).rejects.toThrow();
  return readFileSync(written, 'utf8').trim().split('\n');
}

const featuresOf = (switchValue: string) => switchValue.slice('--disable-features='.length).split(',');

describe('the Chromium of the journeys', () => {
  it('keeps every feature Playwright turns off, and turns off the interface pages a headless browser never shows', async () => {
    const lines = await commandLine();
    const disabling = lines.filter((line) => line.startsWith('--disable-features='));
    // Chromium reads only the last one.
    const effective = featuresOf(disabling.at(-1)!);
    const playwrights = disabling.slice(0, -1).flatMap(featuresOf);
    expect(playwrights.length, 'Playwright disables features of its own').toBeGreaterThan(0);
    expect(effective).toEqual(expect.arrayContaining([...playwrights, ...UNSEEN_INTERFACE_FEATURES]));
  });
});

describe('which Chromium the journeys launch', () => {
  const isShell = (candidate: string) => path.basename(candidate) === 'chromium-headless-shell';

  it('is the headless shell where there is one, and the full browser where there is none', () => {
    const candidates = systemCandidates('shell');
    const firstFull = candidates.findIndex((candidate) => !isShell(candidate));
    expect(candidates.slice(0, firstFull).length).toBeGreaterThan(0);
    expect(candidates.slice(0, firstFull).every(isShell)).toBe(true);
    expect(candidates.slice(firstFull)).toEqual(systemCandidates('full'));
  });

  it('is never the headless shell for what needs the full browser', () => {
    expect(systemCandidates('full').filter(isShell)).toEqual([]);
    expect(systemCandidates('full').length).toBeGreaterThan(0);
  });
});
