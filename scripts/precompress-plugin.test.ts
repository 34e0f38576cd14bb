import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from './precompress-plugin.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-precompress-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Wayfare</title>'.repeat(20));
  await writeFile(path.join(dir, 'assets', 'index-Ab12.js'), 'console.log("app");\n'.repeat(50));
  await writeFile(path.join(dir, 'assets', 'index-Ab12.css'), 'body{margin:0}\n'.repeat(50));
  await writeFile(path.join(dir, 'manifest.webmanifest'), '{"name":"Wayfare"}');
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dir, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('precompressDirectory', () => {
  it('writes a Brotli and a gzip copy of every text asset that decode to the asset, and leaves images alone', async () => {
    const compressed = await precompressDirectory(dir);
    expect(compressed).toEqual([
      'assets/index-Ab12.css',
      'assets/index-Ab12.js',
      'favicon.svg',
      'index.html',
      'manifest.webmanifest',
    ]);
    for (const file of compressed) {
      const original = await readFile(path.join(dir, file));
      expect(brotliDecompressSync(await readFile(path.join(dir, `${file}.br`))), file).toEqual(original);
      expect(gunzipSync(await readFile(path.join(dir, `${file}.gz`))), file).toEqual(original);
    }
    const script = await readFile(path.join(dir, 'assets', 'index-Ab12.js'));
    expect((await readFile(path.join(dir, 'assets', 'index-Ab12.js.br'))).byteLength).toBeLessThan(
      script.byteLength / 4,
    );
    expect(existsSync(path.join(dir, 'icon-192.png.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'icon-192.png.gz'))).toBe(false);
  });
});
