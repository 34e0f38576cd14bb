// Captures the main screens of the app into docs/screenshots/ for the README: starts the whole stack
// (scripts/start.ts) on ports of its own with a fresh data folder, signs in as the demo traveler Alex
// Morgan, walks through the journeys and saves a PNG per screen, on a desktop and on a phone.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium-launch-options.ts';
import { fillDate } from './fill-date.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'docs', 'screenshots');
// SCREENSHOTS_PORT_OFFSET shifts the three ports, for a machine where they are taken.
const portOffset = Number(process.env.SCREENSHOTS_PORT_OFFSET ?? 0);
const ports = { bff: 3200 + portOffset, travelApi: 4210 + portOffset, identity: 4220 + portOffset };
const origin = `http://localhost:${ports.bff}`;
const admin = `http://localhost:${ports.travelApi}/admin`;
const adminToken = 'dev-admin-token-change-me-00001';
const alex = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
  email: 'alex@wayfare.example',
  password: 'alex-demo',
};

function isoDateFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return date.toISOString().slice(0, 10);
}

async function startStack(dataDir: string): Promise<() => Promise<void>> {
  const stack = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WAYFARE_BFF_PORT: String(ports.bff),
      WAYFARE_TRAVEL_API_PORT: String(ports.travelApi),
      WAYFARE_IDENTITY_PORT: String(ports.identity),
      WAYFARE_DATA_DIR: dataDir,
      WAYFARE_DEMO: '1',
    },
  });
  const exited = new Promise<void>((resolve) => stack.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    stack.stdout.setEncoding('utf8');
    stack.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (/Wayfare is ready at/.test(output)) resolve();
    });
    stack.once('exit', (code) =>
      reject(new Error(`the stack exited (${code}) before it was ready:\n${output}`)),
    );
  });
  return async () => {
    stack.kill('SIGTERM');
    await exited;
  };
}

async function adminPost(route: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${admin}/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function shot(page: Page, name: string): Promise<void> {
  // The demo controls' code arrives after the page: each screen is taken with them drawn.
  await page.locator('.demo-panel-pending').waitFor({ state: 'detached' });
  await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: false });
  console.log(`docs/screenshots/${name}.png`);
}

/** Scrolls so that `target` sits just under the sticky header: a screen's results, not its form. */
async function scrollBelowHeader(page: Page, target: Locator): Promise<void> {
  await target.evaluate((element) => {
    const header = document.querySelector('header')?.getBoundingClientRect().height ?? 0;
    window.scrollTo({ top: element.getBoundingClientRect().top + window.scrollY - header - 16 });
  });
}

async function signIn(page: Page, returnTo: string): Promise<void> {
  await page.goto(`${origin}/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel('Email').fill(alex.email);
  await page.getByLabel('Password').fill(alex.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.origin === origin);
}

/** Searches three nights in Paris from the stays page and waits until every hotel is priced. */
async function searchStaysInParis(page: Page): Promise<Locator> {
  await page.goto(`${origin}/stays`);
  const destination = page.getByRole('combobox', { name: 'Destination' });
  await destination.fill('Paris');
  await page
    .getByRole('option', { name: /^Paris.*City/ })
    .first()
    .click();
  await fillDate(page.getByRole('group', { name: 'Check-in', exact: true }), isoDateFromToday(30));
  await fillDate(page.getByRole('group', { name: 'Check-out', exact: true }), isoDateFromToday(33));
  await page.getByRole('button', { name: 'Search stays' }).click();
  const stays = page.getByRole('list', { name: 'Stays' });
  await stays.getByRole('article').first().waitFor();
  await page.waitForFunction(
    () => document.querySelector('ol[aria-label="Stays"]')?.getAttribute('aria-busy') === 'false',
  );
  return stays;
}

async function desktopScreens(browser: Browser): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(origin);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shot(page, 'start');

  await page.goto(`${origin}/auth/login?returnTo=/`);
  await page.getByLabel('Email').waitFor();
  await shot(page, 'sign-in');

  await signIn(
    page,
    `/flights?trip=return&leg=LHR.JFK.${isoDateFromToday(30)}&leg=JFK.LHR.${isoDateFromToday(37)}&adults=1&cabin=economy`,
  );
  // The README is in English: the demo traveler (Spanish by their home airport) reads the app in English.
  const english = await page.request.patch(`${origin}/api/profile`, {
    data: { locale: 'en-GB' },
    headers: { 'x-requested-with': 'wayfare' },
  });
  if (!english.ok()) throw new Error(`profile language: ${english.status()} ${await english.text()}`);
  await page.reload();
  const firstOffer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
  await firstOffer.waitFor();
  await shot(page, 'flights');

  await firstOffer.locator('summary').click();
  await firstOffer.getByRole('button', { name: /^Book/ }).click();
  const pay = page.getByRole('button', { name: /^Book and pay/ });
  await pay.waitFor();
  await shot(page, 'checkout');
  await pay.click();
  await page.waitForURL(/\/bookings\/[^/?]+\?confirmed=1/);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shot(page, 'booking-confirmed');

  const stays = await searchStaysInParis(page);
  await scrollBelowHeader(page, page.getByRole('heading', { level: 2, name: /^Stays in / }));
  await shot(page, 'stays');

  await stays.getByRole('article').filter({ hasText: 'per night' }).first().getByRole('link').click();
  await page.getByRole('list', { name: 'Rates' }).getByRole('article').first().waitFor();
  await page.waitForFunction(
    () => document.querySelector('ol[aria-label="Rates"]')?.getAttribute('aria-busy') === 'false',
  );
  await shot(page, 'stay-rates');

  await page.goto(`${origin}/profile`);
  await page.getByRole('combobox', { name: 'Home airport' }).waitFor();
  // The home airport is named by city and airport once the airport list answers (never a bare code).
  await page.waitForFunction(
    () =>
      !/^[A-Z]{3}$/.test(
        document.querySelector<HTMLInputElement>('[id="field-homeAirport"] input')?.value ?? '',
      ),
  );
  await shot(page, 'profile');

  await page.goto(`${origin}/bookings`);
  await page.getByRole('list', { name: 'Bookings' }).getByRole('article').first().waitFor();
  await shot(page, 'bookings');

  await page.goto(`${origin}/inbox`);
  await page
    .getByRole('status')
    .filter({ hasText: /^Live$/ })
    .waitFor();
  const { notification } = (await adminPost('simulate', {
    traveler: alex.id,
    type: 'SEGMENT_DELAYED',
    minutes: 45,
  })) as { notification: { tripId: string; segmentId: string; title: string } };
  await page
    .getByRole('region', { name: 'Notifications' })
    // The app writes the toast in the traveler's words from the notification's facts.
    .getByRole('button', { name: /^Dismiss: / })
    .first()
    .waitFor();
  await shot(page, 'inbox');

  await page.goto(`${origin}/trips/${notification.tripId}/segment/${notification.segmentId}`);
  await page.getByRole('region', { name: 'Schedule' }).waitFor();
  await shot(page, 'segment-delayed');

  await page.goto(origin);
  await page.getByText(/^Next: /).waitFor();
  await shot(page, 'home');

  await page.goto(`${origin}/trips`);
  await page.getByRole('region', { name: 'Upcoming' }).getByRole('article').first().waitFor();
  await shot(page, 'trips');

  const broken = (await adminPost('simulate', {
    traveler: alex.id,
    type: 'SEGMENT_DELAYED',
    breaksConnection: true,
  })) as { segment: { tripId: string } };
  await page.goto(`${origin}/trips/${broken.segment.tripId}`);
  const atRisk = page.getByRole('list', { name: 'Trip timeline' }).getByRole('note').first();
  await atRisk.waitFor();
  await atRisk.evaluate((note) => note.closest('li')?.scrollIntoView({ block: 'center' }));
  await shot(page, 'trip-at-risk');
  await context.close();
}

async function phoneScreens(browser: Browser): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await signIn(page, `/flights?trip=one-way&leg=CDG.FCO.${isoDateFromToday(21)}&adults=1&cabin=economy`);
  await page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first().waitFor();
  await shot(page, 'phone-flights');
  await searchStaysInParis(page);
  await shot(page, 'phone-stays');
  await page.goto(`${origin}/inbox`);
  await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  await shot(page, 'phone-inbox');

  // The same traveler reading in Spanish: home on the phone, then a delay as it arrives.
  const spanish = await page.request.patch(`${origin}/api/profile`, {
    data: { locale: 'es-ES' },
    headers: { 'x-requested-with': 'wayfare' },
  });
  if (!spanish.ok()) throw new Error(`profile language: ${spanish.status()} ${await spanish.text()}`);
  // The toast comes over the live stream: the stream is open before the delay is raised.
  const streamOpen = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/notifications/stream',
  );
  await page.goto(origin);
  await page.getByText('Tu próximo viaje').waitFor();
  await streamOpen;
  await shot(page, 'phone-home-es');
  await adminPost('simulate', { traveler: alex.id, type: 'SEGMENT_DELAYED', minutes: 45 });
  await page.locator('.toast-region .toast').filter({ hasText: 'se retrasa' }).first().waitFor();
  await shot(page, 'phone-delay-toast-es');
  await context.close();
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-screenshots-'));
mkdirSync(outDir, { recursive: true });
const stopStack = await startStack(dataDir);
// The full browser, as a traveler's draws the pages (the journeys run in the headless shell).
const browser = await chromium.launch({
  headless: true,
  ...(await chromiumLaunchOptions({ build: 'full' })),
});
try {
  await desktopScreens(browser);
  await phoneScreens(browser);
} finally {
  await browser.close();
  await stopStack();
  rmSync(dataDir, { recursive: true, force: true });
}
