/**
 * Lighthouse on the pages a traveler lands on: builds the SPA, starts the whole stack as `npm start` does
 * (scripts/start.ts: the BFF serving dist/web, the travel API and identity stand-ins, on free ports with a
 * data folder of its own), and audits, in Lighthouse's mobile profile (simulated slow 4G, 4x slower CPU)
 * and its desktop profile:
 *   start         the start page, signed out
 *   home          the start page of a signed-in traveler (their next trip)
 *   flights       flight results (one way, LHR to JFK in 30 days)
 *   stays         stay results (Lisbon, two nights in 30 days)
 *   trip          the traveler's first trip
 * Chromium is Debian's (/usr/lib/chromium/chromium, headless=new, no sandbox, no GPU). The traveler signs
 * in once through the identity stand-in's form; Lighthouse keeps the session cookie and clears the service
 * worker, its caches and the HTTP cache before each page, so every page is a first visit.
 *
 * Prints a Markdown table of the performance, accessibility and best-practices scores and FCP, LCP, TBT
 * and CLS, and writes it into docs/benchmarks.md between its lighthouse markers (`--no-write` leaves the
 * file alone).
 *
 * Flags: --no-write, --chromium <path>, --pages start,home,... (all), --profiles mobile,desktop (both),
 * --reports <folder> (each page's full Lighthouse report as <page>-<profile>.json, for its findings).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { staySearchToParams } from '../web/src/features/stays/search/stay-search-params.ts';
import type { StayDestination } from '#shared/api/destinations.ts';
import { freePort } from '../scripts/service-group.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    'no-write': { type: 'boolean', default: false },
    chromium: { type: 'string', default: '/usr/lib/chromium/chromium' },
    pages: { type: 'string', default: 'start,home,flights,stays,trip' },
    profiles: { type: 'string', default: 'mobile,desktop' },
    reports: { type: 'string' },
  },
});

const root = path.resolve(import.meta.dirname, '..');
const BENCHMARKS = path.join(root, 'docs/benchmarks.md');
const START_MARK = '<!-- lighthouse:start -->';
const END_MARK = '<!-- lighthouse:end -->';
/** A test traveler of the identity stand-in (any N signs in; the travel API makes up their trips). */
const TRAVELER = { email: 'traveler900000001@wayfare.test', password: 'test-pass' };
const PROFILES = ['mobile', 'desktop'] as const;
type Profile = (typeof PROFILES)[number];
const wantedPages = new Set(values.pages.split(','));
const wantedProfiles = PROFILES.filter((profile) => values.profiles.split(',').includes(profile));

function isoDateFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function build(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** scripts/start.ts on free ports; resolves with the app's origin once it says it is ready. */
async function startStack(dataDir: string): Promise<{ origin: string; stack: ChildProcess }> {
  const [bff, travelApi, identity] = [await freePort(), await freePort(), await freePort()];
  const stack = spawn(process.execPath, [path.join(root, 'scripts/start.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WAYFARE_BFF_PORT: String(bff),
      WAYFARE_TRAVEL_API_PORT: String(travelApi),
      WAYFARE_IDENTITY_PORT: String(identity),
      WAYFARE_DATA_DIR: dataDir,
      WAYFARE_DEMO: '1',
      WAYFARE_DEMO_EVENTS_SECONDS: '0',
      WEB_DIST_DIR: path.join(root, 'dist/web'),
      LOG_LEVEL: 'warn',
    },
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    stack.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = /Wayfare is ready at (http:\/\/\S+?)(?:\s|$)/.exec(output);
      if (ready?.[1]) resolve(ready[1]);
    });
    stack.once('exit', (code) => reject(new Error(`the stack exited (${code}) before it was ready`)));
  });
  stack.stdout?.resume();
  return { origin, stack };
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/login?returnTo=/`);
  await page.locator('#email').fill(TRAVELER.email);
  await page.locator('#password').fill(TRAVELER.password);
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.locator('form:has(#email) button[type="submit"]').click(),
  ]);
  // The callback redirects on to the app: wait until the browser is back on it, signed in.
  await page.waitForFunction((appOrigin: string) => location.origin === appOrigin, {}, origin);
}

/** What the signed-in traveler's pages need: a trip of theirs and a stay destination. */
async function travelerData(page: Page): Promise<{ tripId: string; destination: StayDestination }> {
  return page.evaluate(async () => {
    const headers = { 'X-Requested-With': 'wayfare', Accept: 'application/json' };
    const trips = (await (await fetch('/api/trips', { headers })).json()) as { items: { tripId: string }[] };
    const places = (await (await fetch('/api/stays/destinations?query=lisbon', { headers })).json()) as {
      items: StayDestination[];
    };
    const tripId = trips.items[0]?.tripId;
    const destination = places.items.find((item) => item.type === 'city');
    if (!tripId || !destination) throw new Error('the traveler has no trip, or Lisbon is not a destination');
    return { tripId, destination };
  });
}

interface Row {
  page: string;
  profile: Profile;
  result: Result;
}

async function audit(page: Page, url: string, profile: Profile): Promise<Result> {
  const flags: Flags = {
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  };
  const runner = await lighthouse(url, flags, profile === 'desktop' ? desktopConfig : undefined, page);
  if (!runner) throw new Error(`Lighthouse gave no result for ${url}`);
  if (runner.lhr.runtimeError) throw new Error(`${url}: ${runner.lhr.runtimeError.message}`);
  return runner.lhr;
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
    header: ['page', 'profile', 'performance', 'accessibility', 'best practices', 'FCP', 'LCP', 'TBT', 'CLS'],
    cells: rows.map(({ page, profile, result }) => [
      page,
      profile,
      score(result, 'performance'),
      score(result, 'accessibility'),
      score(result, 'best-practices'),
      seconds(result, 'first-contentful-paint'),
      seconds(result, 'largest-contentful-paint'),
      millis(result, 'total-blocking-time'),
      shift(result),
    ]),
  };
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
  const versions = first
    ? `Lighthouse ${first.result.lighthouseVersion}, ${first.result.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}`
    : '';
  const load = os.loadavg().map((value) => value.toFixed(1));
  const section = [
    START_MARK,
    `Recorded ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${versions}, Node ${process.version}, ` +
      `${os.cpus().length} cores, load average at the end ${load.join(' / ')}.`,
    '',
    tableText,
    END_MARK,
  ].join('\n');
  const text = readFileSync(BENCHMARKS, 'utf8');
  const start = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  if (start === -1 || end === -1) throw new Error(`docs/benchmarks.md has no ${START_MARK} … ${END_MARK}`);
  writeFileSync(BENCHMARKS, text.slice(0, start) + section + text.slice(end + END_MARK.length));
}

build();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-lighthouse-'));
let stack: ChildProcess | undefined;
let browser: Browser | undefined;
try {
  const started = await startStack(dataDir);
  stack = started.stack;
  const { origin } = started;
  browser = await puppeteer.launch({
    executablePath: values.chromium,
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage();
  const rows: Row[] = [];
  const run = async (name: string, url: string) => {
    if (!wantedPages.has(name)) return;
    for (const profile of wantedProfiles) {
      console.log(`${name} (${profile}): ${url}`);
      const result = await audit(page, url, profile);
      rows.push({ page: name, profile, result });
      if (values.reports !== undefined) {
        mkdirSync(values.reports, { recursive: true });
        writeFileSync(path.join(values.reports, `${name}-${profile}.json`), JSON.stringify(result));
      }
    }
  };

  await run('start', `${origin}/`);
  await signIn(page, origin);
  const { tripId, destination } = await travelerData(page);
  const stayParams = staySearchToParams({
    destination,
    checkIn: isoDateFromToday(30),
    checkOut: isoDateFromToday(32),
    rooms: [{ adults: 1, childrenAges: [] }],
    bookingProfile: false,
  });
  await run('home', `${origin}/`);
  await run(
    'flights',
    `${origin}/flights?trip=one-way&leg=LHR.JFK.${isoDateFromToday(30)}&adults=1&cabin=economy`,
  );
  await run('stays', `${origin}/stays?${stayParams.toString()}`);
  await run('trip', `${origin}/trips/${tripId}`);

  const result = table(rows);
  printTable(result.header, result.cells);
  if (!values['no-write']) writeBenchmarks(markdown(result), rows);
} finally {
  await browser?.close();
  if (stack && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack?.once('exit', resolve));
    stack.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
