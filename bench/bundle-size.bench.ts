/**
 * Initial JavaScript of the SPA: builds it (npm run build) and measures, for every screen a traveler can
 * land on, what loads before it draws (the shell, the screen's chunk and the language catalog), gzipped,
 * against the 110 KB budget (scripts/check-bundle-size.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { formatReport, measureBundle } from '../scripts/check-bundle-size.ts';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const report = measureBundle(path.join(root, 'dist/web'));
console.log(formatReport(report));
if (!report.withinLimit) process.exit(1);
