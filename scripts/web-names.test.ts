import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The SPA's production files and classes are named for the web side: none shares its name with one of the
 * BFF (bff/) or the stand-ins (upstream/), so a name found in a stack trace, a search or a review says
 * which side it is on. index.ts, the public face of a folder on any side, is the one name all may use.
 */
const root = path.resolve(import.meta.dirname, '..');
const SHARED_NAMES = new Set(['index']);

const isProduction = (file: string) =>
  /\.tsx?$/.test(file) &&
  !/\.test\.tsx?$/.test(file) &&
  !file.split(path.sep).some((part) => part === 'test-support' || part === 'node_modules');

function productionFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter(isProduction)
    .map((file) => path.join(folder, file));
}

const baseName = (file: string) => path.basename(file).replace(/\.tsx?$/, '');
const classNames = (file: string) =>
  [...readFileSync(path.join(root, file), 'utf8').matchAll(/^export (?:abstract )?class (\w+)/gm)].map(
    ([, name]) => name,
  );

describe('names on the web side', () => {
  const web = productionFiles('web/src');
  const servers = [...productionFiles('bff'), ...productionFiles('upstream')];

  it('reads the files of every side', () => {
    expect(web.length).toBeGreaterThan(100);
    expect(servers.length).toBeGreaterThan(100);
  });

  it('gives no production file of web/src the base name of one in bff/ or upstream/', () => {
    const serverNames = new Set(servers.map(baseName));
    const clashes = web.filter(
      (file) => !SHARED_NAMES.has(baseName(file)) && serverNames.has(baseName(file)),
    );
    expect(clashes).toEqual([]);
  });

  it('gives no class of web/src the name of one in bff/ or upstream/', () => {
    const serverClasses = new Set(servers.flatMap(classNames));
    expect(web.flatMap(classNames).filter((name) => serverClasses.has(name))).toEqual([]);
  });
});
