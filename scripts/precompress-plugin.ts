import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files a browser downloads as text: each gets a Brotli (.br) and a gzip (.gz) copy beside it. */
export const TEXT_ASSET = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|xml)$/;

/** Every text asset under `dir` (recursively), as paths relative to it with `/` separators. */
export async function textAssets(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return (
    entries
      .filter((entry) => entry.isFile() && TEXT_ASSET.test(entry.name))
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      // The build's own records (.vite/manifest.json) are never sent to a browser.
      .filter((file) => !file.split('/').some((part) => part.startsWith('.')))
      .sort()
  );
}

/**
 * Writes `<file>.br` (Brotli at its best quality, for text) and `<file>.gz` (gzip level 9) beside every
 * text asset under `dir`, so a server can send the smallest copy a browser accepts without compressing
 * on each request. Returns the assets it compressed.
 */
export async function precompressDirectory(dir: string): Promise<string[]> {
  const files = await textAssets(dir);
  await Promise.all(
    files.map(async (file) => {
      const full = path.join(dir, file);
      const content = await readFile(full);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gz)]);
    }),
  );
  return files;
}

/** After a build is written: the Brotli and gzip copies of every text asset of the output folder. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'wayfare-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      await precompressDirectory(outDir);
    },
  };
}
