import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    include: ['{web,bff,shared,upstream,scripts,bench}/**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'dist/**', '.tools/**', '.data/**', 'e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    setupFiles: ['./vitest.setup.ts'],
  },
});
