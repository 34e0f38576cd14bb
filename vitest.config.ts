import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import EnvironmentGroupingSequencer from './scripts/vitest-sequencer.ts';

/**
 * How long a test waits for something to happen before it fails: findBy… and waitFor of Testing
 * Library, vi.waitFor and expect.poll (vitest.setup.ts applies it to the first three). Their one second
 * was a speed assertion no test meant to make: on a loaded two-core machine a render after a fetch, or
 * a reconnect through Redis, can take longer, and a test whose behaviour was right failed. A wait ends
 * as soon as what it waits for holds, so no passing test is slower; speed is measured by the benchmarks.
 * Below the test timeout, so a wait that never ends fails with its own message.
 */
const EVENTUALLY_MS = 15_000;

const TESTS = '{web,bff,shared,upstream,scripts,bench}/**/*.test.{ts,tsx}';
const NOT_TESTS = ['node_modules/**', 'dist/**', '.tools/**', '.data/**', 'e2e/**'];

/**
 * Files that need a module graph of their own: they replace a module (vi.mock), which only works when the
 * module is loaded fresh for the file, or they start the process's telemetry with settings of their own. Every other file shares its worker's loaded modules with the files
 * before it (isolate: false), which saves loading Fastify, React and the rest once per file: each file
 * cleans up what it changes (rendered trees, stubbed globals, servers, timers) in its own hooks. A worker is
 * kept only for a next file of the same environment, so the sequencer runs each environment's files together.
 */
const ISOLATED = ['shared/upstream/verify-signature.test.ts', 'bff/observability/traces.test.ts'];

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    exclude: NOT_TESTS,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // A worker per core and one more: most files wait on loopback servers, child processes, Redis or timers
    // much of the time. With a worker per core, a whole run took 244 s of CPU where CI's took 275 s on two
    // cores: half the machine idle (docs/testing.md). (Vitest's default leaves one core out, which on a
    // two-core machine is a single worker.)
    maxWorkers: availableParallelism() + 1,
    expect: { poll: { timeout: EVENTUALLY_MS } },
    provide: { eventuallyMs: EVENTUALLY_MS },
    setupFiles: ['./vitest.setup.ts'],
    sequence: { sequencer: EnvironmentGroupingSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: [TESTS], exclude: [...NOT_TESTS, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
