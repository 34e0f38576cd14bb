import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { measureBundle, pageFiles, type BuildManifest } from './check-bundle-size.ts';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A build as Vite's manifest records it: the shell, two screens, a shared chunk and two catalogs. */
const MANIFEST: BuildManifest = {
  'index.html': {
    file: 'assets/index-abc.js',
    isEntry: true,
    imports: ['_zod-def.js'],
    dynamicImports: [
      'src/features/auth/start-page.tsx',
      '_trips-page-ghi.js',
      'src/i18n/messages.en.ts',
      'src/i18n/messages.es.ts',
      'src/features/demo/demo-panel.tsx',
    ],
  },
  '_zod-def.js': { file: 'assets/zod-def.js' },
  'src/features/auth/start-page.tsx': {
    file: 'assets/start-page-jkl.js',
    isDynamicEntry: true,
    imports: ['index.html'],
  },
  '_trips-page-ghi.js': { file: 'assets/trips-page-ghi.js', imports: ['_timeline-mno.js', '_zod-def.js'] },
  '_timeline-mno.js': { file: 'assets/timeline-mno.js' },
  'src/i18n/messages.en.ts': { file: 'assets/messages.en-pqr.js', isDynamicEntry: true },
  'src/i18n/messages.es.ts': { file: 'assets/messages.es-stu.js', isDynamicEntry: true },
  'src/features/demo/demo-panel.tsx': { file: 'assets/demo-panel-vwx.js', isDynamicEntry: true },
};

/** Text that gzip cannot shrink much: `bytes` random bytes in base64. */
const noise = (bytes: number) => randomBytes(bytes).toString('base64');

describe('check-bundle-size', () => {
  it('counts for each screen the shell, the screen’s chunk with its static imports and the larger catalog', () => {
    const sizes: Record<string, number> = {
      'assets/messages.en-pqr.js': 10,
      'assets/messages.es-stu.js': 12,
    };
    const pages = pageFiles(MANIFEST, (file) => sizes[file] ?? 1);
    expect(pages).toEqual([
      {
        page: 'src/features/auth/start-page.tsx',
        files: [
          'assets/index-abc.js',
          'assets/zod-def.js',
          'assets/start-page-jkl.js',
          'assets/messages.es-stu.js',
        ],
      },
      {
        page: '_trips-page-ghi.js',
        files: [
          'assets/index-abc.js',
          'assets/zod-def.js',
          'assets/trips-page-ghi.js',
          'assets/timeline-mno.js',
          'assets/messages.es-stu.js',
        ],
      },
    ]);
  });

  it('counts a search page twice: folded, as a results link opens it, and on its form, fetched with it', () => {
    const manifest: BuildManifest = {
      ...MANIFEST,
      'index.html': {
        ...MANIFEST['index.html']!,
        dynamicImports: [
          'src/features/flights/flights-page.tsx',
          'src/features/flights/flight-search-form.tsx',
          'src/i18n/messages.en.ts',
          'src/i18n/messages.es.ts',
        ],
      },
      'src/features/flights/flights-page.tsx': {
        file: 'assets/flights-page-a1.js',
        isDynamicEntry: true,
        imports: ['index.html'],
      },
      'src/features/flights/flight-search-form.tsx': {
        file: 'assets/flight-search-form-b2.js',
        isDynamicEntry: true,
        imports: ['index.html', '_date-field-c3.js'],
      },
      '_date-field-c3.js': { file: 'assets/date-field-c3.js' },
    };
    const shell = ['assets/index-abc.js', 'assets/zod-def.js'];
    expect(pageFiles(manifest, () => 1)).toEqual([
      {
        page: 'src/features/flights/flights-page.tsx',
        files: [...shell, 'assets/flights-page-a1.js', 'assets/messages.en-pqr.js'],
      },
      {
        page: 'src/features/flights/flights-page.tsx',
        form: 'src/features/flights/flight-search-form.tsx',
        files: [
          ...shell,
          'assets/flights-page-a1.js',
          'assets/flight-search-form-b2.js',
          'assets/date-field-c3.js',
          'assets/messages.en-pqr.js',
        ],
      },
    ]);
    const withoutForm = { ...manifest };
    delete withoutForm['src/features/flights/flight-search-form.tsx'];
    expect(() => pageFiles(withoutForm, () => 1)).toThrow(/no flight-search-form\.tsx/);
  });

  it('sums each screen’s gzipped sizes and fails when one is above the budget', async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'bundle-size-'));
    folders.push(dist);
    await mkdir(path.join(dist, 'assets'));
    await mkdir(path.join(dist, '.vite'));
    await writeFile(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    for (const chunk of Object.values(MANIFEST)) {
      await writeFile(path.join(dist, chunk.file), 'console.log("a");'.repeat(200));
    }
    await writeFile(path.join(dist, 'assets/timeline-mno.js'), noise(40_000));

    const report = measureBundle(dist, 30);
    const [start, trips] = report.pages;
    expect(start?.chunks.map((chunk) => chunk.file)).toHaveLength(4);
    expect(start?.totalGzipBytes).toBe(start?.chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0));
    expect(start?.chunks[0]?.gzipBytes).toBeLessThan(start?.chunks[0]?.bytes ?? 0);
    expect(start?.withinLimit).toBe(true);
    expect(trips?.withinLimit).toBe(false);
    expect(report.withinLimit).toBe(false);
    expect(measureBundle(dist, 100).withinLimit).toBe(true);
  });
});
