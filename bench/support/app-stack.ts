/**
 * The whole app as `npm start` runs it, for benchmarks that drive a browser: scripts/start.ts on free
 * ports with a data folder of its own, serving a built SPA, and the pages a traveler lands on.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { StayDestination } from '#shared/api/destinations.ts';
import { staySearchToParams } from '../../web/src/features/stays/search/stay-search-params.ts';
import { freePort } from '../../scripts/service-group.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** A test traveler of the identity stand-in (any N signs in; the travel API makes up their trips). */
const TRAVELER = { email: 'traveler900000001@wayfare.test', password: 'test-pass' };

export function isoDateFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Builds the SPA (into dist/web unless `flags` say otherwise); exits when the build fails. */
export function buildSpa(flags: string[] = []): void {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', ...flags],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Debian's Chromium, which the browser benchmarks launch (`--chromium` names another). */
export const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';

/**
 * Runs `use` with a page of Chromium (`chromium`, headless=new, no sandbox, no GPU) and the origin of the
 * stack started for it, serving `webDist` from a data folder of its own; closes the browser, stops the
 * stack and removes the folder afterwards, however `use` ends.
 */
export async function withAppInBrowser<T>(
  { chromium, webDist }: { chromium: string; webDist?: string },
  use: (page: Page, origin: string) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-bench-data-'));
  let stack: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    const started = await startStack(dataDir, webDist);
    stack = started.stack;
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    });
    return await use(await browser.newPage(), started.origin);
  } finally {
    await browser?.close();
    await stopStack(stack);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** scripts/start.ts on free ports serving `webDist`; resolves with the app's origin once it says it is ready. */
async function startStack(
  dataDir: string,
  webDist = path.join(root, 'dist/web'),
): Promise<{ origin: string; stack: ChildProcess }> {
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
      WEB_DIST_DIR: webDist,
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

/** Stops the stack and waits for it to exit. */
async function stopStack(stack: ChildProcess | undefined): Promise<void> {
  if (!stack || stack.exitCode !== null) return;
  const exited = new Promise((resolve) => stack.once('exit', resolve));
  stack.kill('SIGTERM');
  await exited;
}

export async function signIn(page: Page, origin: string): Promise<void> {
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

/**
 * The signed-in traveler's pages: their home, flight results (one way, LHR to JFK in 30 days), stay
 * results (Lisbon, two nights in 30 days) and their first trip.
 */
export async function travelerPages(
  page: Page,
  origin: string,
): Promise<{ home: string; flights: string; stays: string; trip: string }> {
  const { tripId, destination } = await page.evaluate(async () => {
    const headers = { 'X-Requested-With': 'wayfare', Accept: 'application/json' };
    const trips = (await (await fetch('/api/trips', { headers })).json()) as { items: { tripId: string }[] };
    const places = (await (await fetch('/api/stays/destinations?query=lisbon', { headers })).json()) as {
      items: StayDestination[];
    };
    return { tripId: trips.items[0]?.tripId, destination: places.items.find((item) => item.type === 'city') };
  });
  if (!tripId || !destination) throw new Error('the traveler has no trip, or Lisbon is not a destination');
  const stayParams = staySearchToParams({
    destination,
    checkIn: isoDateFromToday(30),
    checkOut: isoDateFromToday(32),
    rooms: [{ adults: 1, childrenAges: [] }],
    bookingProfile: false,
  });
  return {
    home: `${origin}/`,
    flights: `${origin}/flights?trip=one-way&leg=LHR.JFK.${isoDateFromToday(30)}&adults=1&cabin=economy`,
    stays: `${origin}/stays?${stayParams.toString()}`,
    trip: `${origin}/trips/${tripId}`,
  };
}
