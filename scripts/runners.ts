// Runs a set of test runners (typecheck, lint, Vitest, Playwright...) each whatever the others' results:
// a runner starts once the runners it comes after have ended, so independent ones share the machine, and
// one whose `needs` failed is reported as not run. Each output line is shown as it comes, prefixed with
// its runner's name; at the end come every runner's summary (the counts it printed) and the total time.
import { spawn, type ChildProcess } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

export interface Runner {
  name: string;
  command: string[];
  /** The lines of the runner's output that summarise it (its counts), kept in the order they came. */
  summary: RegExp;
  /** The lines that name a failed (or flaky) test, repeated after the summary so a long log need not be searched. */
  failures?: RegExp;
  /** What the summary says when the runner passed and printed none of those lines. */
  quietPass?: string;
  /** Runners that must have ended before this one starts. */
  after?: string[];
  /** Runners that must have passed for this one to mean anything (the journeys need the build). */
  needs?: string[];
  env?: Record<string, string>;
}

export interface Outcome {
  key: string;
  name: string;
  status: 'passed' | 'failed' | 'not run';
  seconds: number;
  summary: string[];
  /** The tests the runner named as failed or flaky, each once, in the order they came. */
  failures: string[];
}

export interface RunOptions {
  cwd: string;
  write?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** The run's label in the last line (`npm test passed in 312 s`). */
  label: string;
}

const defaultWrite = (text: string, stream: 'stdout' | 'stderr') =>
  (stream === 'stderr' ? process.stderr : process.stdout).write(text);

/** Runs `runners` (by key) in their order of `after`; resolves with every outcome once all have ended. */
export async function runAll(
  runners: Record<string, Runner>,
  options: RunOptions,
): Promise<{ outcomes: Outcome[]; passed: boolean; seconds: number }> {
  const write = options.write ?? defaultWrite;
  const started = performance.now();
  const width = Math.max(...Object.values(runners).map((runner) => runner.name.length));
  const children = new Set<ChildProcess>();
  const stop = (signal: NodeJS.Signals) => {
    for (const child of children) {
      if (child.pid === undefined) continue;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    stop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const runOne = (key: string, runner: Runner): Promise<Outcome> => {
    const began = performance.now();
    const summary: string[] = [];
    const failures = new Set<string>();
    const prefix = `${runner.name.padEnd(width)} │ `;
    write(`${prefix}▶ ${runner.command.join(' ')}\n`, 'stdout');
    return new Promise((resolve) => {
      const [command = '', ...args] = runner.command;
      // Its own process group, so that an interrupted run stops the runner's servers and browsers too.
      const child = spawn(command, args, {
        cwd: options.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: { ...process.env, ...runner.env },
      });
      children.add(child);
      const pipe = (stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr') => {
        let partial = '';
        const show = (line: string) => {
          const plain = stripVTControlCharacters(line);
          if (runner.summary.test(plain)) summary.push(plain.trim());
          if (runner.failures?.test(plain)) failures.add(plain.trim());
          write(`${prefix}${line}\n`, name);
        };
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          const lines = (partial + chunk).split('\n');
          partial = lines.pop() ?? '';
          lines.forEach(show);
        });
        stream.on('end', () => {
          if (partial !== '') show(partial);
        });
      };
      pipe(child.stdout, 'stdout');
      pipe(child.stderr, 'stderr');
      let settled = false;
      const finish = (code: number | null, note?: string) => {
        if (settled) return;
        settled = true;
        children.delete(child);
        const passed = code === 0;
        if (passed && summary.length === 0 && runner.quietPass) summary.push(runner.quietPass);
        if (!passed) summary.push(note ?? (code === null ? 'stopped' : `exit code ${code}`));
        resolve({
          key,
          name: runner.name,
          status: passed ? 'passed' : 'failed',
          seconds: (performance.now() - began) / 1000,
          summary,
          failures: [...failures],
        });
      };
      child.on('error', (error) => finish(1, error.message));
      child.on('close', (code) => finish(code));
    });
  };

  const outcomes = new Map<string, Promise<Outcome>>();
  const outcomeOf = (key: string): Promise<Outcome> => {
    const known = outcomes.get(key);
    if (known) return known;
    const runner = runners[key];
    if (runner === undefined) throw new Error(`No runner named ${key}`);
    const outcome = (async (): Promise<Outcome> => {
      const before = await Promise.all(
        [...new Set([...(runner.after ?? []), ...(runner.needs ?? [])])]
          .filter((other) => other in runners)
          .map(outcomeOf),
      );
      const blocker = before.find((other) => runner.needs?.includes(other.key) && other.status !== 'passed');
      if (blocker || interrupted) {
        return {
          key,
          name: runner.name,
          status: 'not run',
          seconds: 0,
          failures: [],
          summary: [interrupted ? 'interrupted' : `needs ${blocker?.name}, which did not pass`],
        };
      }
      return runOne(key, runner);
    })();
    outcomes.set(key, outcome);
    return outcome;
  };

  const results = await Promise.all(Object.keys(runners).map(outcomeOf));
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  const seconds = (performance.now() - started) / 1000;
  const passed = results.every((outcome) => outcome.status === 'passed');

  write('\nSummary\n', 'stdout');
  for (const outcome of results) {
    const mark = outcome.status === 'passed' ? '✓' : '✗';
    const time = outcome.status === 'not run' ? '' : `${outcome.seconds.toFixed(0)} s`;
    write(
      `  ${mark} ${outcome.name.padEnd(width)}  ${outcome.status.padEnd(7)}  ${time.padStart(5)}  ${outcome.summary.join('; ')}\n`,
      'stdout',
    );
  }
  for (const outcome of results.filter((result) => result.failures.length > 0)) {
    write(`\n${outcome.name}: failed or flaky\n`, 'stdout');
    for (const line of outcome.failures.slice(0, MAX_FAILURES_SHOWN)) write(`  ${line}\n`, 'stdout');
    if (outcome.failures.length > MAX_FAILURES_SHOWN) {
      write(`  and ${outcome.failures.length - MAX_FAILURES_SHOWN} more\n`, 'stdout');
    }
  }
  const failed = results.filter((outcome) => outcome.status !== 'passed').map((outcome) => outcome.name);
  const counts = countTests(results);
  if (counts) write(`\nTests: ${counts}\n`, 'stdout');
  write(
    `\n${options.label} ${passed ? 'passed' : `failed (${failed.join(', ')})`} in ${seconds.toFixed(0)} s\n`,
    'stdout',
  );
  return { outcomes: results, passed, seconds };
}

/** Failure lines repeated per runner after the summary; the rest are in the log above. */
const MAX_FAILURES_SHOWN = 20;

const COUNTED = ['passed', 'failed', 'flaky', 'skipped', 'did not run', 'interrupted'] as const;

/**
 * The tests counted over every runner's summary (Vitest's `Tests` line, Playwright's count lines), such
 * as `1321 passed, 0 failed, 0 flaky, 2 skipped`; empty when no runner counted tests.
 */
export function countTests(outcomes: Outcome[]): string {
  const totals = new Map<string, number>(COUNTED.map((kind) => [kind, 0]));
  let counted = false;
  for (const line of outcomes.flatMap((outcome) => outcome.summary)) {
    if (/^Test Files\b/.test(line)) continue;
    for (const match of line.matchAll(/(\d+) (passed|failed|flaky|skipped|did not run|interrupted)\b/g)) {
      counted = true;
      totals.set(match[2] ?? '', (totals.get(match[2] ?? '') ?? 0) + Number(match[1]));
    }
  }
  if (!counted) return '';
  return COUNTED.filter((kind) => ['passed', 'failed', 'flaky'].includes(kind) || totals.get(kind))
    .map((kind) => `${totals.get(kind)} ${kind}`)
    .join(', ');
}
