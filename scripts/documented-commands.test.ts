import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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

/**
 * These tests wait for commands they start (each child has its own timeout, which is the real bound), and
 * spawnSync holds the test until the child is done: a test timeout below the child's failed a command that
 * answered correctly after 27 s on a loaded machine. Each test waits as long as its children may take.
 */
const CHILD_WAIT_MS = 90_000;
const FRESH_CLONE_WAIT_MS = 150_000;

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
    ['start:fleet'],
    ['fleet:roll'],
    ['start:identity'],
    ['travel-api:rotate-secret'],
    ['identity:rotate-keys'],
    ['simulate'],
    ['sign-and-send'],
  ])(
    'npm run %s -- --help answers under the machine’s oldest Node',
    (name) => {
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
    },
    CHILD_WAIT_MS,
  );
});

describe('installing on an old Node', () => {
  const old = olderNode();
  const withNode = (node: string) => ({
    ...process.env,
    PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
  });

  it.skipIf(old === process.execPath)(
    'a bare npm install on an old Node goes ahead without a page of engine warnings',
    () => {
      const result = spawnSync('npm', ['install', '--dry-run', '--no-audit', '--no-fund'], {
        cwd: root,
        encoding: 'utf8',
        env: withNode(old),
        timeout: 60_000,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/EBADENGINE|npm warn/);
    },
    CHILD_WAIT_MS,
  );

  it(
    'the first npm test of a fresh clone installs the dependencies under a Node they support',
    () => {
      const clone = mkdtempSync(path.join(tmpdir(), 'wayfare-clone-'));
      try {
        mkdirSync(path.join(clone, 'scripts'));
        cpSync(path.join(root, 'scripts', 'launch.mjs'), path.join(clone, 'scripts', 'launch.mjs'));
        cpSync(path.join(root, '.npmrc'), path.join(clone, '.npmrc'));
        if (existsSync(path.join(root, '.tools')))
          symlinkSync(path.join(root, '.tools'), path.join(clone, '.tools'));
        mkdirSync(path.join(clone, 'needs-new-node'));
        writeFileSync(
          path.join(clone, 'needs-new-node', 'package.json'),
          JSON.stringify({ name: 'needs-new-node', version: '1.0.0', engines: { node: '>=22.22' } }),
        );
        writeFileSync(
          path.join(clone, 'package.json'),
          JSON.stringify({
            name: 'clone',
            version: '1.0.0',
            private: true,
            engines: { node: '>=22.22' },
            scripts: { 'test:all': 'node -e "console.log(\'tests ran on \' + process.version)"' },
            dependencies: { 'needs-new-node': 'file:./needs-new-node' },
          }),
        );
        const lock = spawnSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], {
          cwd: clone,
          encoding: 'utf8',
          env: withNode(process.execPath),
        });
        expect(lock.status, lock.stderr).toBe(0);

        const result = spawnSync(old, ['scripts/launch.mjs', 'test'], {
          cwd: clone,
          encoding: 'utf8',
          env: withNode(old),
          timeout: 120_000,
        });
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain('Installing the dependencies (npm ci, one time).');
        expect(result.stdout).toMatch(/tests ran on v(2[2-9]|[3-9]\d)\./);
        expect(`${result.stdout}${result.stderr}`).not.toMatch(/EBADENGINE/);
        expect(existsSync(path.join(clone, 'node_modules', 'needs-new-node', 'package.json'))).toBe(true);
      } finally {
        rmSync(clone, { recursive: true, force: true });
      }
    },
    FRESH_CLONE_WAIT_MS,
  );
});
