import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * How long a test waits for something to happen before it fails: findBy… and waitFor of Testing
 * Library, vi.waitFor and expect.poll (vitest.setup.ts applies it to the first three). Their one second
 * was a speed assertion no test meant to make: on a loaded two-core machine a render after a fetch, or
 * a reconnect through Redis, can take longer, and a test whose behaviour was right failed. A wait ends
 * as soon as what it waits for holds, so no passing test is slower; speed is measured by the benchmarks.
 * Below the test timeout, so a wait that never ends fails with its own message.
 */
const EVENTUALLY_MS = 15_000;

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    include: ['{web,bff,shared,upstream,scripts,bench}/**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'dist/**', '.tools/**', '.data/**', 'e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    expect: { poll: { timeout: EVENTUALLY_MS } },
    provide: { eventuallyMs: EVENTUALLY_MS },
    setupFiles: ['./vitest.setup.ts'],
  },
});
