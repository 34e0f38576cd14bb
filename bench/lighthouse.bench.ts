/**
 * Lighthouse on the pages a traveler lands on: builds the SPA, starts the whole stack as `npm start` does
 * (scripts/start.ts: the BFF serving dist/web, the travel API and identity stand-ins, on free ports with a
 * data folder of its own) behind nginx's TLS front speaking HTTP/2 to the browser, as the app is deployed
 * (docs/scale-out-nginx.conf), or with `--via bff` without the front (the BFF itself answers the browser,
 * in plain HTTP/1.1), and audits, in Lighthouse's mobile profile (simulated slow 4G, 4x slower CPU) and its
 * desktop profile:
 *   start         the start page, signed out
 *   home          the start page of a signed-in traveler (their next trip)
 *   flights       flight results (one way, LHR to JFK in 30 days)
 *   stays         stay results (Lisbon, two nights in 30 days)
 *   trip          the traveler's first trip
 * Chromium is Debian's (/usr/lib/chromium/chromium, headless=new, no sandbox, no GPU). The traveler signs
 * in once through the identity stand-in's form; Lighthouse keeps the session cookie and clears the service
 * worker, its caches and the HTTP cache before each page, so every page is a first visit.
 *
 * The protocol decides much of a slow network's load: over HTTP/1.1 a browser opens at most six
 * connections to the origin, so a page's dozens of small chunks and its API calls wait for one another in
 * turns of a round trip each; over HTTP/2 they share one connection. A phone reaches the app through the
 * front, so that is what the audit measures unless told otherwise.
 *
 * Prints a Markdown table of the performance, accessibility and best-practices scores and FCP, LCP, TBT
 * and CLS, and writes it into docs/benchmarks.md between its lighthouse markers, those of the front or
 * those of the BFF itself (`--no-write` leaves the file alone).
 *
 * Flags: --via front|bff (front), --no-write, --chromium <path>, --pages start,home,... (all),
 * --profiles mobile,desktop (both), --runs <n> (3: each page audited n times in a row, each a first visit;
 * the table shows the median run, the one Lighthouse's computeMedianRun picks as nearest the runs' median
 * FCP and time to interactive, and every run's performance score beside it, since one audit's score moves
 * by several points from one run to the next), --reports <folder> (the median run's full Lighthouse report
 * of each page as <page>-<profile>.json, for its findings, and each run's as <page>-<profile>-run<k>.json),
 * --throttling simulate|devtools (simulate: Lighthouse's default, the load run at full speed and its slow
 * network and CPU computed from it; devtools: the browser itself slowed during the load, so what the page
 * asks for early, alongside its code, is measured as it happens; the table is not written then),
 * --dist <a built SPA> (audits that build instead of building one into dist/web: two builds can then be
 * audited one after the other, since one run's scores move by several points).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import * as medianRun from 'lighthouse/core/lib/median-run.js';
import type { Page } from 'puppeteer-core';
import {
  buildSpa,
  DEBIAN_CHROMIUM,
  signIn,
  travelerPages,
  withAppInBrowser,
  type AppFront,
} from './support/app-stack.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    'no-write': { type: 'boolean', default: false },
    chromium: { type: 'string', default: DEBIAN_CHROMIUM },
    pages: { type: 'string', default: 'start,home,flights,stays,trip' },
    profiles: { type: 'string', default: 'mobile,desktop' },
    reports: { type: 'string' },
    throttling: { type: 'string', default: 'simulate' },
    dist: { type: 'string' },
    via: { type: 'string', default: 'front' },
    runs: { type: 'string', default: '3' },
  },
});
if (values.via !== 'front' && values.via !== 'bff') {
  console.error(
    `--via is front (nginx's TLS and HTTP/2 front, as deployed) or bff (the BFF itself, as npm start runs it)`,
  );
  process.exit(2);
}
const via: AppFront = values.via;

const root = path.resolve(import.meta.dirname, '..');
const BENCHMARKS = path.join(root, 'docs/benchmarks.md');
/** Where this run's table goes: the front's and the BFF's own each have their markers. */
const MARKER = via === 'front' ? 'lighthouse' : 'lighthouse-bff';
const START_MARK = `<!-- ${MARKER}:start -->`;
const END_MARK = `<!-- ${MARKER}:end -->`;
const PROFILES = ['mobile', 'desktop'] as const;
type Profile = (typeof PROFILES)[number];
const wantedPages = new Set(values.pages.split(','));
const wantedProfiles = PROFILES.filter((profile) => values.profiles.split(',').includes(profile));

/** Lighthouse's choice of a median run (its declarations name the result through a global namespace). */
const computeMedianRun = medianRun.computeMedianRun as unknown as (runs: Result[]) => Result;

/** Audits of each page and profile; the table shows the median one (Lighthouse's own choice of it). */
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`--runs is a whole number of audits per page and profile, 1 or more: "${values.runs}"`);
  process.exit(2);
}

interface Row {
  page: string;
  profile: Profile;
  /** The median run: the one nearest the runs' median FCP and time to interactive. */
  result: Result;
  /** Every run's performance score, in the order they ran. */
  scores: string[];
}

/** Lighthouse's own failures to record a load (NO_NAVSTART, NO_FCP...): the audit is run again, this many times at most. */
const AUDIT_ATTEMPTS = 3;

async function audit(page: Page, url: string, profile: Profile): Promise<Result> {
  const flags: Flags = {
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    throttlingMethod: values.throttling === 'devtools' ? 'devtools' : 'simulate',
  };
  for (let attempt = 1; ; attempt += 1) {
    const runner = await lighthouse(url, flags, profile === 'desktop' ? desktopConfig : undefined, page);
    if (!runner) throw new Error(`Lighthouse gave no result for ${url}`);
    const failure = runner.lhr.runtimeError;
    if (!failure) return runner.lhr;
    if (attempt === AUDIT_ATTEMPTS) throw new Error(`${url}: ${failure.message}`);
    console.log(`  Lighthouse could not record this load (${failure.code}); auditing it again`);
  }
}

const score = (result: Result, category: string) => {
  const value = result.categories[category]?.score;
  return value === null || value === undefined ? '-' : String(Math.round(value * 100));
};
const seconds = (result: Result, id: string) => {
  const value = result.audits[id]?.numericValue;
  return value === undefined ? '-' : `${(value / 1000).toFixed(1)} s`;
};
const millis = (result: Result, id: string) => {
  const value = result.audits[id]?.numericValue;
  return value === undefined ? '-' : `${Math.round(value)} ms`;
};
const shift = (result: Result) => {
  const value = result.audits['cumulative-layout-shift']?.numericValue;
  return value === undefined ? '-' : value.toFixed(2);
};

function table(rows: Row[]): { header: string[]; cells: string[][] } {
  return {
    header: [
      'page',
      'profile',
      'performance',
      'accessibility',
      'best practices',
      'FCP',
      'LCP',
      'TBT',
      'CLS',
      'CPU/memory power',
      ...(RUNS > 1 ? ["runs' scores"] : []),
    ],
    cells: rows.map(({ page, profile, result, scores }) => [
      page,
      profile,
      score(result, 'performance'),
      score(result, 'accessibility'),
      score(result, 'best-practices'),
      seconds(result, 'first-contentful-paint'),
      seconds(result, 'largest-contentful-paint'),
      millis(result, 'total-blocking-time'),
      shift(result),
      // Lighthouse's benchmarkIndex of the machine during this audit: its 4x CPU slowdown assumes 1,500-2,000.
      String(Math.round(result.environment.benchmarkIndex)),
      ...(RUNS > 1 ? [scores.join(', ')] : []),
    ]),
  };
}

/** Lighthouse's warnings about a run (a load that never settled, a slow host), one line per audit that has any. */
function runWarnings(rows: Row[]): string[] {
  return rows.flatMap(({ page, profile, result }) =>
    result.runWarnings.length === 0 ? [] : [`- ${page} (${profile}): ${result.runWarnings.join(' ')}`],
  );
}

function markdown({ header, cells }: { header: string[]; cells: string[][] }): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...cells.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function writeBenchmarks(tableText: string, rows: Row[]): void {
  const [first] = rows;
  const warnings = runWarnings(rows);
  const versions = first
    ? `Lighthouse ${first.result.lighthouseVersion}, ${first.result.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}`
    : '';
  const load = os.loadavg().map((value) => value.toFixed(1));
  const section = [
    START_MARK,
    `Recorded ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
      (via === 'front' ? 'through the TLS and HTTP/2 front, ' : 'from the BFF itself over HTTP/1.1, ') +
      `${versions}, Node ${process.version}, ` +
      `${os.cpus().length} cores, load average at the end ${load.join(' / ')}.`,
    '',
    tableText,
    ...(warnings.length === 0
      ? ['', 'Lighthouse warned of no run.']
      : ['', "Lighthouse's warnings:", '', ...warnings]),
    END_MARK,
  ].join('\n');
  const text = readFileSync(BENCHMARKS, 'utf8');
  const start = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  if (start === -1 || end === -1) throw new Error(`docs/benchmarks.md has no ${START_MARK} … ${END_MARK}`);
  writeFileSync(BENCHMARKS, text.slice(0, start) + section + text.slice(end + END_MARK.length));
}

if (values.dist === undefined) buildSpa();
const webDist = values.dist === undefined ? undefined : path.resolve(values.dist);
await withAppInBrowser(
  { chromium: values.chromium, via, ...(webDist && { webDist }) },
  async (page, origin) => {
    const rows: Row[] = [];
    const run = async (name: string, url: string) => {
      if (!wantedPages.has(name)) return;
      for (const profile of wantedProfiles) {
        console.log(`${name} (${profile}): ${url}`);
        const results: Result[] = [];
        for (let index = 0; index < RUNS; index += 1) results.push(await audit(page, url, profile));
        const result = computeMedianRun(results);
        rows.push({ page: name, profile, result, scores: results.map((one) => score(one, 'performance')) });
        const reports = values.reports;
        if (reports !== undefined) {
          mkdirSync(reports, { recursive: true });
          writeFileSync(path.join(reports, `${name}-${profile}.json`), JSON.stringify(result));
          if (RUNS > 1)
            for (const [index, one] of results.entries())
              writeFileSync(
                path.join(reports, `${name}-${profile}-run${index + 1}.json`),
                JSON.stringify(one),
              );
        }
      }
    };

    await run('start', `${origin}/`);
    await signIn(page, origin);
    const pages = await travelerPages(page, origin);
    await run('home', pages.home);
    await run('flights', pages.flights);
    await run('stays', pages.stays);
    await run('trip', pages.trip);

    const result = table(rows);
    printTable(result.header, result.cells);
    for (const line of runWarnings(rows)) console.log(line);
    if (!values['no-write'] && values.throttling === 'simulate') writeBenchmarks(markdown(result), rows);
  },
);
