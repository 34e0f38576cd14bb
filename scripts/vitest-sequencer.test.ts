import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import EnvironmentGroupingSequencer from './vitest-sequencer.ts';

const folder = mkdtempSync(path.join(os.tmpdir(), 'wayfare-sequencer-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A test file of `size` bytes whose first line is `head`: Vitest orders files it has no timings for by size. */
function testFile(project: string, name: string, size: number, head = '') {
  const moduleId = path.join(folder, name);
  writeFileSync(moduleId, `${head}\n`.padEnd(size, ' '));
  return {
    moduleId,
    project: {
      name: project,
      config: { environment: 'node', isolate: project === 'isolated', sequence: { groupOrder: 0 } },
    },
  } as unknown as TestSpecification;
}

/** A run with no timings cached, as in a fresh clone. */
const freshRun = { cache: { getTestSpecificationResult: () => undefined } } as unknown as Vitest;

const JSDOM = '// @vitest-environment jsdom';

describe("the unit tests' order", () => {
  it('runs the files of one environment one after another, each project and environment in Vitest’s own order', async () => {
    const files = [
      testFile('unit', 'small-page.test.tsx', 1_000, JSDOM),
      testFile('unit', 'large-server.test.ts', 9_000),
      testFile('unit', 'large-page.test.tsx', 8_000, JSDOM),
      testFile('isolated', 'telemetry.test.ts', 500),
      testFile('unit', 'said-node.test.ts', 2_000, '// @vitest-environment node'),
      testFile('unit', 'middle-server.test.ts', 5_000),
    ];

    const order = await new EnvironmentGroupingSequencer(freshRun).sort(files);

    expect(order.map((spec) => path.basename(spec.moduleId))).toEqual([
      'telemetry.test.ts',
      'large-server.test.ts',
      'middle-server.test.ts',
      'said-node.test.ts',
      'large-page.test.tsx',
      'small-page.test.tsx',
    ]);
  });
});
