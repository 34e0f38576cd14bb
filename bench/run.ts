/**
 * `npm run bench [name ...]`: runs each bench/*.bench.ts script in turn (all of them, or those named,
 * with or without the .bench.ts suffix) under this Node, under a header. Each script prints its own
 * table. Exits non-zero if a name is unknown or a benchmark fails.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const SUFFIX = '.bench.ts';
const benchDir = import.meta.dirname;
const available = readdirSync(benchDir)
  .filter((file) => file.endsWith(SUFFIX))
  .map((file) => file.slice(0, -SUFFIX.length))
  .sort();

const requested = [
  ...new Set(process.argv.slice(2).map((arg) => path.basename(arg).replace(/\.bench\.ts$/, ''))),
];
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${available.join(', ') || 'none'}.`);
  process.exit(2);
}

if (available.length === 0) console.log('No benchmarks in bench/.');

const failed: string[] = [];
for (const name of requested.length > 0 ? requested : available) {
  console.log(`\n=== ${name} ===\n`);
  const run = spawnSync(process.execPath, [path.join(benchDir, `${name}${SUFFIX}`)], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(`${name} (${run.signal ?? `exit ${run.status}`})`);
}

if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
