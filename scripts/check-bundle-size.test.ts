import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initialScripts, measureBundle } from './check-bundle-size.ts';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

const INDEX = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="modulepreload" crossorigin href="/assets/zod-def.js">
<link rel="stylesheet" href="/assets/index.css">
<link rel="preconnect" href="https://fonts.example">
<script src="https://cdn.example/analytics.js"></script>
</head><body></body></html>`;

describe('check-bundle-size', () => {
  it('counts the module scripts and modulepreloads index.html loads, not styles or other origins', () => {
    expect(initialScripts(INDEX)).toEqual(['/assets/index-abc.js', '/assets/zod-def.js']);
  });

  it('sums their gzipped sizes and fails above the budget', async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'bundle-size-'));
    folders.push(dist);
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), INDEX);
    await writeFile(path.join(dist, 'assets/index-abc.js'), 'console.log("a");'.repeat(200));
    const random = Array.from({ length: 40_000 }, (_, index) =>
      String.fromCharCode(33 + ((index * 7919) % 90)),
    ).join('');
    await writeFile(path.join(dist, 'assets/zod-def.js'), random);

    const report = measureBundle(dist, 150);
    expect(report.chunks.map((chunk) => chunk.file)).toEqual(['/assets/index-abc.js', '/assets/zod-def.js']);
    expect(report.totalGzipBytes).toBe(report.chunks[0]!.gzipBytes + report.chunks[1]!.gzipBytes);
    expect(report.chunks[0]!.gzipBytes).toBeLessThan(report.chunks[0]!.bytes);
    expect(report.withinLimit).toBe(true);
    expect(measureBundle(dist, 0.1).withinLimit).toBe(false);
  });
});
