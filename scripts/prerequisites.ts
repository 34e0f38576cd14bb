// The programs the test suite starts besides Node: Redis, nginx and Prometheus for the fleet and the
// Redis-backed tests, promtool for the alert rules, a Chromium for the journeys. Each is named with the Debian package that installs it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findBrowser } from './find-browser.mjs';

export interface Prerequisite {
  name: string;
  debianPackage: string;
}

/** Where a program is, on PATH or in the sbin folders Debian installs daemons into (not on every PATH). */
export function findProgram(name: string): string | undefined {
  const folders = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/sbin',
  ];
  return folders
    .filter((folder) => folder !== '')
    .map((folder) => path.join(folder, name))
    .find((candidate) => existsSync(candidate));
}

export const PREREQUISITES = {
  'redis-server': { name: 'redis-server', debianPackage: 'redis-server' },
  nginx: { name: 'nginx', debianPackage: 'nginx' },
  promtool: { name: 'promtool', debianPackage: 'prometheus' },
  prometheus: { name: 'prometheus', debianPackage: 'prometheus' },
  // The journeys run in Chromium's headless shell where there is one, and those of system notifications in
  // the full browser (scripts/find-browser.mjs): the full browser is what they cannot do without.
  chromium: { name: 'chromium', debianPackage: 'chromium chromium-headless-shell' },
} satisfies Record<string, Prerequisite>;

export type PrerequisiteName = keyof typeof PREREQUISITES;

/** Which of `names` this machine lacks (none when what needs them can run). */
export async function missingPrerequisites(names: Iterable<PrerequisiteName>): Promise<Prerequisite[]> {
  const missing: Prerequisite[] = [];
  for (const name of new Set(names)) {
    if (name === 'chromium') {
      if ((await findBrowser({ build: 'full' })) === null) missing.push(PREREQUISITES.chromium);
    } else if (findProgram(name) === undefined) missing.push(PREREQUISITES[name]);
  }
  return missing;
}

/** One line naming what is missing and the command that installs it. */
export function missingLine(missing: Prerequisite[], what: string): string {
  const names = missing.map((program) => program.name).join(', ');
  const packages = missing.map((program) => program.debianPackage).join(' ');
  const chromium = missing.includes(PREREQUISITES.chromium) ? ', or set CHROMIUM_PATH to a Chromium' : '';
  return `${what} needs ${names}, missing here: install with \`sudo apt-get install ${packages}\` (Debian/Ubuntu)${chromium}.`;
}
