import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'vite';
import { precompiledMessagesPlugin } from './precompiled-messages-plugin.ts';

const ENTRY = 'web/service-worker/sw.ts';
const MANIFEST_MODULE = 'virtual:precache-manifest';
/** Hashed build output changes its name when it changes; everything else is revised by its content. */
const HASHED = /^assets\//;

export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

const revisionOf = (content: string | Uint8Array) =>
  createHash('sha256').update(content).digest('hex').slice(0, 16);

/**
 * The app shell to precache: every file of the build and of the public folder, the worker itself and the
 * build's own records (source maps, .vite/) aside.
 */
export function precacheEntries(files: ReadonlyMap<string, string | Uint8Array>): PrecacheEntry[] {
  return [...files]
    .filter(([fileName]) => fileName !== 'sw.js' && !fileName.endsWith('.map') && !fileName.startsWith('.'))
    .map(([fileName, content]) => ({
      url: `/${fileName}`,
      revision: HASHED.test(fileName) ? null : revisionOf(content),
    }))
    .sort((a, b) => a.url.localeCompare(b.url));
}

/**
 * Bundles the service worker into one classic script with the precache manifest written into it, the
 * app's message catalogs it uses compiled as the app's are. `entry` (the repository's path of a part of
 * the worker) bundles that part alone, as its tests load it.
 */
export async function bundleWorker(
  root: string,
  manifest: PrecacheEntry[],
  minify: boolean,
  entry = ENTRY,
): Promise<string> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [
      precompiledMessagesPlugin(),
      {
        name: 'precache-manifest',
        resolveId: (id) => (id === MANIFEST_MODULE ? `\0${MANIFEST_MODULE}` : undefined),
        load: (id) =>
          id === `\0${MANIFEST_MODULE}` ? `export default ${JSON.stringify(manifest)};` : undefined,
      },
    ],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify,
      sourcemap: false,
      emptyOutDir: false,
      copyPublicDir: false,
      rollupOptions: {
        input: path.join(root, entry),
        // A classic script is one chunk: an iife never splits (Vite sets codeSplitting: false for it).
        output: { format: 'iife', entryFileNames: 'sw.js' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((output) =>
    'output' in output ? output.output : [],
  );
  const chunk = outputs.find((output) => output.type === 'chunk' && output.fileName === 'sw.js');
  if (!chunk || chunk.type !== 'chunk') throw new Error('the service worker bundle has no sw.js');
  return chunk.code;
}

function publicFiles(publicDir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of readdirSync(publicDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(publicDir, full).split(path.sep).join('/'), readFileSync(full));
  }
  return files;
}

/**
 * Builds /sw.js from web/service-worker/ with Workbox's runtime modules: in a build, after the app's
 * bundle is known, with the list of its files to precache; in development, on request, precaching
 * nothing (the dev server's modules are not a shell to keep).
 */
export function serviceWorkerPlugin(): Plugin {
  let root = process.cwd();
  let publicDir = '';
  return {
    name: 'wayfare-service-worker',
    enforce: 'post',
    configResolved(config) {
      root = path.resolve(config.root, '..');
      publicDir = config.publicDir;
    },
    configureServer(server) {
      let worker: Promise<string> | undefined;
      server.middlewares.use('/sw.js', (_request, response, next) => {
        worker ??= bundleWorker(root, [], false);
        worker.then(
          (code) => {
            response.setHeader('Content-Type', 'text/javascript');
            response.setHeader('Cache-Control', 'no-cache');
            response.end(code);
          },
          (error: unknown) => next(error),
        );
      });
    },
    async generateBundle(_options, bundle) {
      const files = new Map<string, string | Uint8Array>(publicDir ? publicFiles(publicDir) : []);
      for (const [fileName, output] of Object.entries(bundle)) {
        files.set(fileName, output.type === 'chunk' ? output.code : output.source);
      }
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: await bundleWorker(root, precacheEntries(files), true),
      });
    },
  };
}
