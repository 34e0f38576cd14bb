import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import { precompiledMessagesPlugin } from './scripts/precompiled-messages-plugin.ts';
import { precompressPlugin } from './scripts/precompress-plugin.ts';
import { serviceWorkerPlugin } from './scripts/service-worker-plugin.ts';
import { LANGUAGES } from './web/src/i18n/languages.ts';

const bffOrigin = process.env.BFF_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [
    precompiledMessagesPlugin(),
    // react-aria's own words (the date field's "Calendar", a combo box's announcements) only in the
    // languages the interface speaks, not its forty.
    optimizeLocales.vite({ locales: [...LANGUAGES] }),
    react(),
    serviceWorkerPlugin(),
    // Brotli and gzip copies of every text file of the build, which the BFF sends as the browser accepts.
    precompressPlugin(),
  ],
  resolve: {
    // zod, wherever the SPA uses it, with its eval probe off first (web/src/lib/zod-without-eval.ts).
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('web/src/lib/zod-without-eval.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: each chunk's static imports, from which scripts/check-bundle-size.ts counts
    // what a page loads before it draws. A dot folder: neither served nor precached.
    manifest: true,
    rollupOptions: {
      output: {
        // zod, with the module that turns its eval probe off, in one chunk (web/src/lib/zod-without-eval.ts).
        manualChunks: (id) =>
          /[\\/]node_modules[\\/]zod[\\/]|[\\/]web[\\/]src[\\/]lib[\\/]zod-without-eval\.ts$/.test(id)
            ? 'zod'
            : undefined,
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: bffOrigin, changeOrigin: false },
      '/auth': { target: bffOrigin, changeOrigin: false },
      '/calendar': { target: bffOrigin, changeOrigin: false },
    },
  },
});
