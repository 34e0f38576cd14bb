// `npm test`: every runner of the project (the SPA build, typecheck, lint, format, the unit tests, the
// journeys and the fleet journeys), each whatever the others' results, then every runner's summary and
// the total time; it fails when any runner failed. The programs the suite starts are checked first, so a
// missing one is named in one line, with the command that installs it, before anything long runs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { missingLine, missingPrerequisites, type PrerequisiteName } from './prerequisites.ts';
import { runAll, type Runner } from './runners.ts';

const PLAYWRIGHT_COUNTS = /^\s*\d+ (passed|failed|flaky|skipped|did not run|interrupted)\b/;
/** Playwright's list reporter names each failed or flaky test under its count: `    [desktop] › e2e/x.spec.ts:12:3 › …`. */
const PLAYWRIGHT_FAILURES = /^ {4}\[[\w-]+\] › /;
/** Vitest names each failed test (or file that failed to run) in its failures section: ` FAIL  unit  bff/x.test.ts > …`. */
const VITEST_FAILURES = /^\s*FAIL\s/;

/**
 * The static checks run from the start alongside the tests, on the CPU the tests leave: Linux's idle
 * scheduling class (`chrt --idle 0`, util-linux) gives a process a core only when nothing else wants it,
 * so they fill the time the tests spend waiting (on servers, streams, timers) and take no CPU the tests
 * want, as `nice -n 10` still did. Where there is no chrt (macOS), `nice -n 19`.
 */
const IN_THE_BACKGROUND =
  spawnSync('chrt', ['--idle', '0', 'true']).status === 0 ? ['chrt', '--idle', '0'] : ['nice', '-n', '19'];

/** The repository, where every runner runs. */
const ROOT = path.resolve(import.meta.dirname, '..');

/** How far above the journeys' ports the stack of the journeys that run one at a time listens. */
const ONE_AT_A_TIME_PORT_OFFSET = 1000;

/**
 * The order: the build first (the unit tests' servers and both journeys' stacks serve it), then the unit
 * tests, then the journeys, the journeys that run one at a time and the fleet's, all three at once, each
 * on a stack of its own (other ports): the last two wait on faults, countdowns and restarts much of their
 * time, which the journeys' CPU fills (see docs/testing.md).
 */
const RUNNERS: Record<string, Runner & { programs?: PrerequisiteName[] }> = {
  build: { name: 'build', command: ['npm', 'run', '--silent', 'build'], summary: /built in/ },
  typecheck: {
    name: 'typecheck',
    // One checker thread (TypeScript 7 starts several): in the background, more threads only take CPU the
    // tests would use, for the same work.
    command: [...IN_THE_BACKGROUND, 'npm', 'run', '--silent', 'typecheck', '--', '--singleThreaded'],
    summary: /^Found \d+ errors?/,
    quietPass: 'no type errors',
  },
  lint: {
    name: 'lint',
    command: [...IN_THE_BACKGROUND, 'npx', 'eslint', '.'],
    summary: /problems? \(/,
    quietPass: 'no problems',
  },
  format: {
    name: 'format',
    command: [...IN_THE_BACKGROUND, 'npx', 'prettier', '--check', '.'],
    summary: /Code style issues|All matched files use Prettier/,
  },
  alerts: {
    name: 'alerts',
    // The alert rules parse, and each alert fires (or not) on the series of its unit tests.
    command: [
      ...IN_THE_BACKGROUND,
      'sh',
      '-c',
      'promtool check rules ops/prometheus/alerts.yml && promtool test rules ops/prometheus/alerts.test.yml',
    ],
    summary: /SUCCESS|FAILED/,
    programs: ['promtool'],
  },
  unit: {
    name: 'unit',
    command: ['npx', 'vitest', 'run'],
    summary: /^\s*(Test Files|Tests|Errors)\s/,
    failures: VITEST_FAILURES,
    after: ['build'],
    programs: ['redis-server'],
  },
  journeys: {
    name: 'journeys',
    command: ['npx', 'playwright', 'test', '--project', 'desktop', '--project', 'phone'],
    summary: PLAYWRIGHT_COUNTS,
    failures: PLAYWRIGHT_FAILURES,
    after: ['unit'],
    needs: ['build'],
    programs: ['chromium'],
  },
  // The journeys that run one at a time (stack-wide levers, ten tabs) in a run of their own: as a
  // dependent Playwright project they were skipped whenever any other journey failed. Beside the
  // journeys, on a stack of its own.
  alone: {
    name: 'journeys one at a time',
    // A folder of its own for what a failure leaves (Playwright empties it when it starts), so the
    // journeys' screenshots and report stay.
    command: [
      'npx',
      'playwright',
      'test',
      '--project',
      'one-at-a-time',
      '--no-deps',
      '--output',
      'test-results/one-at-a-time',
    ],
    // Its stack's ports are 1000 above the journeys' (e2e/support/stack.ts), so the two stacks run at once.
    env: {
      PLAYWRIGHT_HTML_OUTPUT_DIR: 'playwright-report/one-at-a-time',
      E2E_PORT_OFFSET: String(Number(process.env.E2E_PORT_OFFSET ?? 0) + ONE_AT_A_TIME_PORT_OFFSET),
    },
    summary: PLAYWRIGHT_COUNTS,
    failures: PLAYWRIGHT_FAILURES,
    after: ['unit'],
    needs: ['build'],
    programs: ['chromium'],
  },
  fleet: {
    name: 'fleet journeys',
    command: ['npx', 'playwright', 'test', '-c', 'playwright.fleet.config.ts'],
    summary: PLAYWRIGHT_COUNTS,
    failures: PLAYWRIGHT_FAILURES,
    // Beside the journeys and the journeys that run one at a time: one worker.
    after: ['unit'],
    needs: ['build'],
    programs: ['redis-server', 'nginx', 'prometheus', 'chromium'],
  },
};

if (process.argv.includes('--help')) {
  console.log(`usage: npm test
       node scripts/launch.mjs run scripts/test-all.ts [${Object.keys(RUNNERS).join('|')}...]

  Runs the SPA build, typecheck, lint (ESLint), format (Prettier), the alert rules' unit tests
  (promtool, ops/prometheus/alerts.test.yml), the unit tests (Vitest), the journeys
  (Playwright) and the fleet journeys (Playwright, playwright.fleet.config.ts), each whatever the others'
  results (the journeys need the build; "alone" is the journeys that run one at a time), then prints each runner's summary and the total time. Exits 1
  when any runner failed. Naming runners runs only those.`);
  process.exit(0);
}

const chosen = process.argv.slice(2);
const unknown = chosen.filter((key) => !(key in RUNNERS));
if (unknown.length > 0) {
  console.error(`No runner named ${unknown.join(', ')}: the runners are ${Object.keys(RUNNERS).join(', ')}.`);
  process.exit(2);
}
const selected = Object.fromEntries(
  Object.entries(RUNNERS).filter(([key]) => chosen.length === 0 || chosen.includes(key)),
);

const missing = await missingPrerequisites(
  Object.values(selected).flatMap((runner) => runner.programs ?? []),
);
if (missing.length > 0) {
  console.error(missingLine(missing, chosen.length === 0 ? 'npm test' : chosen.join(' and ')));
  process.exit(1);
}

// One on-disk cache of compiled code for every Node process of the run (Node's module compile cache): the
// suite starts dozens of processes that load the same modules (Fastify, OpenTelemetry, React, Playwright,
// the stand-ins), and each after the first reads what V8 compiled instead of compiling it again.
process.env.NODE_COMPILE_CACHE ??= path.join(ROOT, 'node_modules', '.cache', 'node-compile-cache');

const { passed } = await runAll(selected, {
  cwd: ROOT,
  label: chosen.length === 0 ? 'npm test' : chosen.join(' and '),
});
process.exit(passed ? 0 : 1);
