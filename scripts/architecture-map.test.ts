import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the map a newcomer reads first: every file or folder it names in backticks
 * must be there. A name with a slash is a path from the repository root; a bare file name (`index.ts`)
 * must be the name of some file of the tree. Patterns and placeholders (`*-queries.ts`,
 * `<resource>-routes.ts`, `#shared/...`) and URL paths (`/api/bookings`) are not paths.
 */
const root = path.resolve(import.meta.dirname, '..');
const MAP = 'docs/architecture.md';
const FILE_NAME = /^[\w.@-]+\.(ts|tsx|js|mjs|json|md|yml|yaml|css|conf)$/;
const PATH = /^[\w@-][\w.@-]*(\/[\w.@-]+)*\/?$/;

/** The paths a markdown text names in backticks, each once, in order. */
function pathsNamedIn(markdown: string): string[] {
  const named = new Set<string>();
  for (const [, code = ''] of markdown.matchAll(/`([^`\n]+)`/g)) {
    if (!PATH.test(code)) continue;
    if (code.includes('/') || FILE_NAME.test(code)) named.add(code);
  }
  return [...named];
}

function exists(named: string): boolean {
  if (named.includes('/')) return existsSync(path.join(root, named));
  return globSync(`**/${named}`, { cwd: root, exclude: (entry) => entry === 'node_modules' }).length > 0;
}

/** The paths a markdown text names that the tree does not hold. */
function missingPaths(markdown: string): string[] {
  return pathsNamedIn(markdown).filter((named) => !exists(named));
}

describe('the architecture map', () => {
  const map = readFileSync(path.join(root, MAP), 'utf8');

  it('names only files and folders that exist', () => {
    expect(missingPaths(map)).toEqual([]);
  });

  it('names the capabilities of each side by their paths', () => {
    const named = pathsNamedIn(map);
    for (const folder of ['bff/routes/api/index.ts', 'bff/travel-api/', 'upstream/travel-api/bookings/']) {
      expect(named).toContain(folder);
    }
    expect(named.length).toBeGreaterThan(100);
  });

  it('finds a path that does not exist, and passes over patterns, placeholders and URLs', () => {
    const text =
      'Calls go through `bff/upstream/` and `upstream/travel-api/routes/bookings-routes.ts`, ' +
      'read by `no-such-file.ts`; see `bff/app.ts`, `index.ts`, `*-queries.ts`, ' +
      '`<resource>-routes.ts`, `#shared/...`, `/api/bookings`, `app.requireSession`.';
    expect(pathsNamedIn(text)).toEqual([
      'bff/upstream/',
      'upstream/travel-api/routes/bookings-routes.ts',
      'no-such-file.ts',
      'bff/app.ts',
      'index.ts',
    ]);
    expect(missingPaths(text)).toEqual([
      'bff/upstream/',
      'upstream/travel-api/routes/bookings-routes.ts',
      'no-such-file.ts',
    ]);
  });
});
