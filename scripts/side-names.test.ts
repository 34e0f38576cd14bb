import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The BFF, the stand-ins and the web app are three sides that share only shared/ (docs/decisions.md,
 * "Code shared by the BFF and the travel API stand-in"). A file or a class named the same on two sides
 * makes a stack trace, a log line or a search name the wrong one, so every name says its side.
 */
const root = path.resolve(import.meta.dirname, '..');
const SIDES = ['bff', 'upstream', 'web/src'] as const;

function productionFiles(side: string): string[] {
  return globSync(`${side}/**/*.{ts,tsx}`, { cwd: root }).filter(
    (file) =>
      !/\.(test|spec)\.tsx?$/.test(file) &&
      !file.endsWith('.d.ts') &&
      path.basename(file) !== 'index.ts' &&
      !file.split(path.sep).includes('node_modules'),
  );
}

/** The names that occur on more than one side, each with the files that hold it. */
function sharedAcrossSides(namesOf: (file: string) => string[]): Record<string, string[]> {
  const byName = new Map<string, { sides: Set<string>; files: string[] }>();
  for (const side of SIDES) {
    for (const file of productionFiles(side)) {
      for (const name of namesOf(file)) {
        const entry = byName.get(name) ?? { sides: new Set(), files: [] };
        entry.sides.add(side);
        entry.files.push(file);
        byName.set(name, entry);
      }
    }
  }
  return Object.fromEntries(
    [...byName].filter(([, entry]) => entry.sides.size > 1).map(([name, entry]) => [name, entry.files]),
  );
}

describe('names say which side they are on', () => {
  it('gives no two production files of bff/, upstream/ and web/src the same base name', () => {
    expect(sharedAcrossSides((file) => [path.basename(file).replace(/\.tsx?$/, '')])).toEqual({});
  });

  it('gives no two classes of bff/, upstream/ and web/src the same name', () => {
    const classes = (file: string) =>
      [
        ...readFileSync(path.join(root, file), 'utf8').matchAll(
          /^(?:export )?(?:default )?(?:abstract )?class (\w+)/gm,
        ),
      ].map((match) => match[1]!);
    expect(sharedAcrossSides(classes)).toEqual({});
  });
});
