/**
 * `npm run bench [name ...] [--flag value ...]`: runs each bench/*.bench.ts script in turn (all of them,
 * or those named, with or without the .bench.ts suffix) under this Node, under a header, passing the
 * flags on to each. Each script prints its own table. Exits non-zero if a name is unknown or a
 * benchmark fails.
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

// Names come first; everything from the first flag on goes to each benchmark (`npm run bench -- sse --streams 4000`).
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(`usage: npm run bench [-- name ... [--flag value ...]]\nbenchmarks: ${available.join(', ')}`);
  process.exit(0);
}
const firstFlag = args.findIndex((arg) => arg.startsWith('-'));
const names = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);
const requested = [...new Set(names.map((arg) => path.basename(arg).replace(/\.bench\.ts$/, '')))];
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${available.join(', ') || 'none'}.`);
  process.exit(2);
}

if (available.length === 0) console.log('No benchmarks in bench/.');

const failed: string[] = [];
for (const name of requested.length > 0 ? requested : available) {
  console.log(`\n=== ${name} ===\n`);
  const run = spawnSync(process.execPath, [path.join(benchDir, `${name}${SUFFIX}`), ...flags], {
    stdio: 'inherit',
  });
  if (run.status !== 0) failed.push(`${name} (${run.signal ?? `exit ${run.status}`})`);
}

if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
