import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTests, runAll, type Runner } from './runners.ts';

const root = path.resolve(import.meta.dirname, '..');

/** A runner that prints `lines` and exits with `code`, a moment after it starts. */
function fake(name: string, lines: string[], code: number, extra: Partial<Runner> = {}): Runner {
  const script = `setTimeout(() => { for (const line of ${JSON.stringify(lines)}) console.log(line); process.exit(${code}); }, 50)`;
  return { name, command: [process.execPath, '-e', script], summary: /^\s*\d+ (passed|failed)/, ...extra };
}

async function runQuietly(runners: Record<string, Runner>) {
  let output = '';
  const result = await runAll(runners, {
    cwd: root,
    label: 'the suite',
    write: (text) => {
      output += text;
    },
  });
  return { ...result, output };
}

describe('running every runner', () => {
  it('runs each runner whatever the others’ results, fails if any failed and prints every summary', async () => {
    const { passed, outcomes, output } = await runQuietly({
      journeys: fake('journeys', ['  2 failed', '  90 passed (3.0m)'], 1),
      fleet: fake('fleet journeys', ['  3 passed (58s)'], 0, { after: ['journeys'] }),
    });
    expect(passed).toBe(false);
    expect(outcomes.map((outcome) => [outcome.name, outcome.status])).toEqual([
      ['journeys', 'failed'],
      ['fleet journeys', 'passed'],
    ]);
    const summary = output.slice(output.indexOf('\nSummary\n'));
    expect(summary).toMatch(/✗ journeys .*failed .*2 failed; 90 passed \(3\.0m\); exit code 1/);
    expect(summary).toMatch(/✓ fleet journeys .*passed .*3 passed \(58s\)/);
    expect(summary).toContain('\nTests: 93 passed, 2 failed, 0 flaky\n');
    expect(summary).toMatch(/the suite failed \(journeys\) in \d+ s\n$/);
  });

  it('names each failed or flaky test again after the summary, once, so a long log need not be searched', async () => {
    const { output } = await runQuietly({
      unit: fake(
        'unit',
        [
          ' × keeps a lease (5000ms)',
          ' FAIL  unit  bff/hub.test.ts > hub > keeps a lease',
          '  1 failed',
          '  9 passed',
        ],
        1,
        { failures: /^\s*FAIL\s/ },
      ),
      journeys: fake(
        'journeys',
        [
          '  1) [desktop] › e2e/a.spec.ts:3:1 › a',
          '  1 failed',
          '    [desktop] › e2e/a.spec.ts:3:1 › a',
          '  1 flaky',
          '    [phone] › e2e/b.spec.ts:9:1 › b',
          '  7 passed',
        ],
        1,
        { failures: /^ {4}\[[\w-]+\] › / },
      ),
      fleet: fake('fleet', ['  3 passed'], 0, { failures: /^ {4}\[[\w-]+\] › / }),
    });
    const after = output.slice(output.indexOf('\nSummary\n'));
    expect(after).toContain('\nunit: failed or flaky\n  FAIL  unit  bff/hub.test.ts > hub > keeps a lease\n');
    expect(after).toContain(
      '\njourneys: failed or flaky\n  [desktop] › e2e/a.spec.ts:3:1 › a\n  [phone] › e2e/b.spec.ts:9:1 › b\n',
    );
    expect(after).not.toContain('fleet: failed or flaky');
  });

  it('reports a runner whose needs failed as not run, and the run as failed', async () => {
    const { passed, outcomes, output } = await runQuietly({
      build: fake('build', [], 1),
      journeys: fake('journeys', ['  1 passed'], 0, { needs: ['build'] }),
      unit: fake('unit', ['  4 passed'], 0),
    });
    expect(passed).toBe(false);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['failed', 'not run', 'passed']);
    expect(output).not.toMatch(/journeys +│/);
    expect(output).toMatch(/✗ journeys .*not run .*needs build, which did not pass/);
    expect(output).toMatch(/the suite failed \(build, journeys\) in \d+ s/);
  });

  it('starts a runner once those it comes after have ended, and the others at once', async () => {
    const { passed, output } = await runQuietly({
      first: fake('first', ['  1 passed'], 0),
      alongside: fake('alongside', ['  1 passed'], 0),
      second: fake('second', ['  1 passed'], 0, { after: ['first'] }),
    });
    expect(passed).toBe(true);
    const at = (line: RegExp) => output.search(line);
    const firstEnded = at(/first +│ {3}1 passed/);
    expect(firstEnded).toBeGreaterThan(0);
    expect(at(/second +│ ▶/)).toBeGreaterThan(firstEnded);
    expect(at(/alongside +│ ▶/)).toBeLessThan(firstEnded);
    expect(output).toMatch(/the suite passed in \d+ s\n$/);
  });
});

describe('the counts of a run', () => {
  it('adds up Vitest’s and Playwright’s counts, not Vitest’s files', () => {
    const outcome = (summary: string[]) => ({
      key: 'x',
      name: 'x',
      status: 'passed' as const,
      seconds: 1,
      summary,
      failures: [],
    });
    expect(
      countTests([
        outcome([
          'Test Files  2 failed | 134 passed (136)',
          'Tests  1 failed | 1221 passed | 3 skipped (1225)',
        ]),
        outcome(['1 flaky', '90 passed (3.0m)', '1 interrupted', '2 did not run']),
      ]),
    ).toBe('1311 passed, 1 failed, 1 flaky, 3 skipped, 2 did not run, 1 interrupted');
  });
});

describe('npm test on a machine without a program it needs', () => {
  it('names the program and the command that installs it in one line, before running anything', () => {
    // A PATH with Node alone: no redis-server on it (Debian keeps it in /usr/bin).
    const bin = mkdtempSync(path.join(tmpdir(), 'wayfare-path-'));
    try {
      symlinkSync(process.execPath, path.join(bin, 'node'));
      const result = spawnSync(process.execPath, ['scripts/test-all.ts', 'unit'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PATH: bin },
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/needs redis-server.*`sudo apt-get install redis-server`/),
      ]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
