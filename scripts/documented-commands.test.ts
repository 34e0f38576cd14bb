import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every command the README documents works on the machine's Node, however old: those that run TypeScript go
 * through scripts/launch.mjs, which fetches a project-local Node 24 when the running Node is older.
 */
const root = path.resolve(import.meta.dirname, '..');
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** An older Node to run the commands with when the machine has one (Debian's /usr/bin/node here). */
function olderNode(): string {
  const candidate = '/usr/bin/node';
  if (!existsSync(candidate)) return process.execPath;
  const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 0);
  return major > 0 && major < 22 ? candidate : process.execPath;
}

const documented = [
  ...new Set([...readme.matchAll(/npm run ([a-z][\w:-]*)/g)].map((match) => match[1] ?? '')),
];

describe('documented commands', () => {
  it('names only scripts that exist', () => {
    expect(documented.length).toBeGreaterThan(8);
    for (const name of documented) expect(Object.keys(scripts), name).toContain(name);
  });

  it('runs every script that runs TypeScript through the launcher', () => {
    for (const [name, command] of Object.entries(scripts)) {
      expect(command, name).not.toMatch(/(^|&&\s*)node\s+(?!scripts\/launch\.mjs)\S+\.ts\b/);
    }
    expect(readme).not.toMatch(/^node (?!scripts\/launch\.mjs)\S+\.ts/m);
  });

  it.each([
    ['bench'],
    ['start:travel-api'],
    ['start:identity'],
    ['travel-api:rotate-secret'],
    ['identity:rotate-keys'],
    ['simulate'],
    ['sign-and-send'],
  ])('npm run %s -- --help answers under the machine’s oldest Node', (name) => {
    const command = scripts[name] ?? '';
    const [, ...args] = command.split(' ');
    const result = spawnSync(olderNode(), [...args, '--help'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|at .+\.ts:\d+/);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.toLowerCase()).toContain('usage');
  });
});
