/**
 * Measures the JavaScript a first visit downloads before the app can render: every script and
 * modulepreload that dist/web/index.html references, gzipped. Fails above the budget.
 *
 *   node scripts/check-bundle-size.ts [--dist dist/web] [--limit-kb 150] [--json]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_LIMIT_KB = 150;

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  chunks: ChunkSize[];
  totalBytes: number;
  totalGzipBytes: number;
  limitBytes: number;
  withinLimit: boolean;
}

/** The local JavaScript files index.html loads at once: module scripts and modulepreload links. */
export function initialScripts(indexHtml: string): string[] {
  const files = new Set<string>();
  for (const match of indexHtml.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) {
    if (match[1]) files.add(match[1]);
  }
  for (const match of indexHtml.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href && /\brel="modulepreload"/.test(tag)) files.add(href);
  }
  return [...files].filter((file) => !/^(?:[a-z]+:)?\/\//i.test(file));
}

export function measureBundle(distDir: string, limitKb = INITIAL_JS_LIMIT_KB): BundleReport {
  const indexHtml = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const chunks = initialScripts(indexHtml).map((file) => {
    const contents = readFileSync(path.join(distDir, file.replace(/^\//, '')));
    return { file, bytes: contents.byteLength, gzipBytes: gzipSync(contents, { level: 9 }).byteLength };
  });
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
  const totalGzipBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  const limitBytes = limitKb * 1024;
  return { chunks, totalBytes, totalGzipBytes, limitBytes, withinLimit: totalGzipBytes <= limitBytes };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatReport(report: BundleReport): string {
  const width = Math.max(...report.chunks.map((chunk) => chunk.file.length), 'total'.length);
  const lines = report.chunks.map(
    (chunk) =>
      `${chunk.file.padEnd(width)}  ${kb(chunk.bytes).padStart(9)}  ${kb(chunk.gzipBytes).padStart(9)} gzip`,
  );
  lines.push(
    `${'total'.padEnd(width)}  ${kb(report.totalBytes).padStart(9)}  ${kb(report.totalGzipBytes).padStart(9)} gzip`,
    `budget: ${kb(report.limitBytes)} gzip · ${report.withinLimit ? 'within budget' : 'OVER BUDGET'}`,
  );
  return lines.join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string', default: 'dist/web' },
      'limit-kb': { type: 'string', default: String(INITIAL_JS_LIMIT_KB) },
      json: { type: 'boolean', default: false },
    },
  });
  const report = measureBundle(path.resolve(values.dist), Number(values['limit-kb']));
  console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  if (!report.withinLimit) process.exit(1);
}
