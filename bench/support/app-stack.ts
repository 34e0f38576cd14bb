/**
 * The whole app for benchmarks that drive a browser, serving a built SPA: as `npm start` runs it
 * (scripts/start.ts on free ports with a data folder of its own, the BFF answering the browser itself in
 * plain HTTP/1.1), or with nginx's TLS front before it speaking HTTP/2 to the browser, as the app is
 * deployed (docs/scale-out-nginx.conf); and the pages a traveler lands on.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { StayDestination } from '#shared/api/destinations.ts';
import { staySearchToParams } from '../../web/src/features/stays/search/stay-search-params.ts';
import { fleetNginxConfig } from '../../scripts/fleet-nginx-config.ts';
import { findProgram } from '../../scripts/prerequisites.ts';
import { freePort, portAnswers } from '../../scripts/service-group.ts';
import { ensureLocalCertificates } from '../../upstream/travel-api/local-certificates.ts';

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

/** Where a benchmark's browser reaches the app: the BFF itself (`npm start`), or a TLS front before it. */
export type AppFront = 'bff' | 'front';

/**
 * Runs `use` with a page of Chromium (`chromium`, headless=new, no sandbox, no GPU) and the origin of the
 * stack started for it, serving `webDist`: the BFF itself (`via: 'bff'`, the default), or nginx's TLS and
 * HTTP/2 front of docs/scale-out-nginx.conf before it (`via: 'front'`). Closes the browser, stops the
 * stack and removes its files afterwards, however `use` ends.
 */
export async function withAppInBrowser<T>(
  { chromium, webDist, via = 'bff' }: { chromium: string; webDist?: string; via?: AppFront },
  use: (page: Page, origin: string) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-bench-data-'));
  let started: StartedStack | undefined;
  let browser: Browser | undefined;
  try {
    started = via === 'front' ? await startBehindFront(dataDir, webDist) : await startStack(dataDir, webDist);
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        // The front's certificate is signed by an authority of its own: trusted by its key, as by a
        // browser that installed that authority, so the page is a secure one.
        ...(started.certificateKey === undefined
          ? []
          : [`--ignore-certificate-errors-spki-list=${started.certificateKey}`]),
      ],
    });
    return await use(await browser.newPage(), started.origin);
  } finally {
    await browser?.close();
    await started?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface StartedStack {
  origin: string;
  /** Stops what was started and waits for it to exit. */
  stop: () => Promise<void>;
  /** The SHA-256 of the front certificate's public key (SPKI), base64, when the origin is https. */
  certificateKey?: string;
}

/**
 * scripts/start.ts on free ports serving `webDist` (its BFF on `bffPort`, and answering at `publicOrigin`
 * when a front serves it); resolves with the app's origin once it says it is ready.
 */
async function startStack(
  dataDir: string,
  webDist = path.join(root, 'dist/web'),
  { bffPort, publicOrigin }: { bffPort?: number; publicOrigin?: string } = {},
): Promise<StartedStack> {
  const [bff, travelApi, identity] = [bffPort ?? (await freePort()), await freePort(), await freePort()];
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
      ...(publicOrigin === undefined ? {} : { WAYFARE_PUBLIC_ORIGIN: publicOrigin }),
      WEB_DIST_DIR: webDist,
      LOG_LEVEL: 'warn',
    },
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    stack.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = /Wayfare is ready at (https?:\/\/\S+?)(?:\s|$)/.exec(output);
      if (ready?.[1]) resolve(ready[1]);
    });
    stack.once('exit', (code) => reject(new Error(`the stack exited (${code}) before it was ready`)));
  });
  stack.stdout?.resume();
  return { origin, stop: () => stopProcess(stack) };
}

/**
 * The stack of `npm start` behind nginx terminating TLS and speaking HTTP/2 to the browser, as the app is
 * deployed: docs/scale-out-nginx.conf filled in for one BFF (scripts/fleet-nginx-config.ts, as `npm run
 * start:fleet` does for its instances) with a certificate of a local authority made for the run.
 */
async function startBehindFront(dataDir: string, webDist?: string): Promise<StartedStack> {
  const nginx = findProgram('nginx');
  if (nginx === undefined) throw new Error('the front needs nginx: sudo apt-get install nginx');
  const [frontPort, bffPort] = [await freePort(), await freePort()];
  // nginx's workers (an unprivileged user when started as root) write their temporary files under it.
  chmodSync(dataDir, 0o755);
  const certificates = await ensureLocalCertificates(path.join(dataDir, 'tls'), 'Wayfare benchmark front');
  const runDir = path.join(dataDir, 'nginx');
  mkdirSync(runDir, { mode: 0o755 });
  const config = path.join(runDir, 'nginx.conf');
  writeFileSync(
    config,
    fleetNginxConfig({
      example: readFileSync(path.join(root, 'docs/scale-out-nginx.conf'), 'utf8'),
      frontPort,
      bffPorts: [bffPort],
      certFile: certificates.certFile,
      keyFile: certificates.keyFile,
      runDir,
    }),
  );
  const publicOrigin = `https://localhost:${frontPort}`;
  const stack = await startStack(dataDir, webDist, { bffPort, publicOrigin });
  const front = spawn(nginx, ['-p', runDir, '-c', config, '-e', 'stderr'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    await stopProcess(front);
    await stack.stop();
  };
  try {
    await untilAnswering(front, frontPort);
  } catch (error) {
    await stop();
    throw error;
  }
  const certificate = new X509Certificate(readFileSync(certificates.certFile));
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return { origin: publicOrigin, stop, certificateKey: createHash('sha256').update(spki).digest('base64') };
}

/** Resolves once `port` accepts connections; rejects if `server` exits first. */
async function untilAnswering(server: ChildProcess, port: number): Promise<void> {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`nginx exited (${server.exitCode}) before it listened`);
    if (await portAnswers(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops a process and waits for it to exit. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
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
