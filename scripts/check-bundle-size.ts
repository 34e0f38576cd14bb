/**
 * Measures the JavaScript a first visit downloads before a page can draw, for every page a traveler can
 * land on: what index.html loads (its module script and everything that script imports statically), the
 * page's own route chunk and its static imports, and the catalog of the interface's language, which is
 * loaded before the first paint (the larger of the languages: either may be the first). A search page
 * whose form is fetched apart from it (PAGES_ON_A_FORM) is measured
 * twice: as a results link opens it, form folded, and as it opens without a search, on its form, whose code
 * its route fetches alongside the page's (web/src/app/router.tsx). Gzipped at level 9, from the build's
 * manifest (dist/web/.vite/manifest.json). Fails when a page is above the budget.
 *
 *   node scripts/check-bundle-size.ts [--dist dist/web] [--limit-kb 110] [--json]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_LIMIT_KB = 110;

/** One chunk of Vite's build manifest (build.manifest), keyed by its source or chunk name. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface PageReport {
  /** The page's route module, as the manifest names it (src/features/.../<name>-page.tsx, or _<name>-page-<hash>.js). */
  page: string;
  /** The search form the page opens on when it has no search, counted with it (src/.../<name>-search-form.tsx). */
  form?: string;
  chunks: ChunkSize[];
  totalBytes: number;
  totalGzipBytes: number;
  withinLimit: boolean;
}

export interface BundleReport {
  pages: PageReport[];
  limitBytes: number;
  withinLimit: boolean;
}

/** A screen a traveler can open by its address: a lazily loaded route module named <name>-page.tsx. */
const PAGE = /(^|\/|_)[a-z-]+-page(\.tsx$|-[\w-]+\.js$)/;

/** A page's name: start-page for src/features/auth/start-page.tsx and _start-page-Ab12.js alike. */
export function pageName(key: string): string {
  return /([a-z-]+-page)(?:\.tsx$|-[\w-]+\.js$)/.exec(key)?.[1] ?? key;
}

const byName = (a: string, b: string) => pageName(a).localeCompare(pageName(b));
/** A search form fetched apart from its page (web/src/lib/preloadable.tsx). */
const FORM_APART = /(^|\/)[a-z-]+-search-form\.tsx$/;

/**
 * The pages that open on a search form fetched apart when their address has no search, and that form:
 * the route of each asks for the form with the page (formUnlessSearched, web/src/app/router.tsx).
 */
export const PAGES_ON_A_FORM: Record<string, string> = {
  'flights-page': 'flight-search-form',
  'stays-page': 'stay-search-form',
};

/** A language's whole catalog (web/src/i18n/messages.<language>.ts). */
const CATALOG = /(^|\/)src\/i18n\/messages\.[a-z-]+\.ts$/;

/** The files a chunk needs before it runs: itself and its static imports, transitively, in load order. */
export function staticClosure(manifest: BuildManifest, key: string, seen = new Set<string>()): string[] {
  if (seen.has(key)) return [];
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build manifest has no ${key}`);
  return [
    chunk.file,
    ...(chunk.imports ?? []).flatMap((imported) => staticClosure(manifest, imported, seen)),
  ];
}

/**
 * The initial files of each page: index.html's, the page's and the larger catalog's, each once; and for a
 * page with a search form fetched apart, the same with the form's.
 */
export function pageFiles(
  manifest: BuildManifest,
  sizeOf: (file: string) => number,
): { page: string; form?: string; files: string[] }[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('the build manifest has no index.html entry');
  const shell = staticClosure(manifest, entry);
  const catalogs = Object.keys(manifest).filter((key) => CATALOG.test(key));
  if (catalogs.length === 0) throw new Error('the build manifest has no language catalog');
  const catalogFiles = catalogs.map((key) => staticClosure(manifest, key));
  const total = (files: string[]) => files.reduce((sum, file) => sum + sizeOf(file), 0);
  const largestCatalog = catalogFiles.reduce((largest, files) =>
    total(files) > total(largest) ? files : largest,
  );
  // The router's screens are the index chunk's dynamic imports named <name>-page (a screen another chunk
  // also imports is a shared chunk, named _<name>-page-<hash>.js, rather than by its source).
  const pages = (manifest[entry]?.dynamicImports ?? []).filter((key) => PAGE.test(key)).sort(byName);
  return pages.flatMap((page) => {
    const files = [...shell, ...staticClosure(manifest, page)];
    const formName = PAGES_ON_A_FORM[pageName(page)];
    const forms = Object.keys(manifest).filter(
      (key) => formName !== undefined && FORM_APART.test(key) && key.endsWith(`/${formName}.tsx`),
    );
    if (formName !== undefined && forms.length === 0)
      throw new Error(`the build manifest has no ${formName}.tsx, the form ${pageName(page)} opens on`);
    return [
      { page, files: [...new Set([...files, ...largestCatalog])] },
      ...forms.map((form) => ({
        page,
        form,
        files: [...new Set([...files, ...staticClosure(manifest, form), ...largestCatalog])],
      })),
    ];
  });
}

export function measureBundle(distDir: string, limitKb = INITIAL_JS_LIMIT_KB): BundleReport {
  const manifest = JSON.parse(
    readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as BuildManifest;
  const sizes = new Map<string, ChunkSize>();
  const sizeOf = (file: string): ChunkSize => {
    let size = sizes.get(file);
    if (!size) {
      const contents = readFileSync(path.join(distDir, file));
      size = { file, bytes: contents.byteLength, gzipBytes: gzipSync(contents, { level: 9 }).byteLength };
      sizes.set(file, size);
    }
    return size;
  };
  const limitBytes = limitKb * 1024;
  const pages = pageFiles(manifest, (file) => sizeOf(file).gzipBytes).map(({ page, form, files }) => {
    const chunks = files.map(sizeOf);
    const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    const totalGzipBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
    return {
      page,
      ...(form === undefined ? {} : { form }),
      chunks,
      totalBytes,
      totalGzipBytes,
      withinLimit: totalGzipBytes <= limitBytes,
    };
  });
  return { pages, limitBytes, withinLimit: pages.every((page) => page.withinLimit) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatReport(report: BundleReport): string {
  const name = (page: PageReport) =>
    page.form === undefined
      ? pageName(page.page)
      : `${pageName(page.page)} + ${path.basename(page.form, '.tsx')}`;
  const width = Math.max(...report.pages.map((page) => name(page).length), 'page'.length);
  const lines = report.pages.map(
    (page) =>
      `${name(page).padEnd(width)}  ${kb(page.totalBytes).padStart(9)}  ${kb(page.totalGzipBytes).padStart(9)} gzip` +
      `${page.withinLimit ? '' : '  OVER BUDGET'}`,
  );
  lines.push(
    `budget: ${kb(report.limitBytes)} gzip a page, the language catalog included · ` +
      `${report.withinLimit ? 'every page within budget' : 'OVER BUDGET'}`,
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
