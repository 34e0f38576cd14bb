import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const bffOrigin = process.env.BFF_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: bffOrigin, changeOrigin: false },
      '/auth': { target: bffOrigin, changeOrigin: false },
    },
  },
});
