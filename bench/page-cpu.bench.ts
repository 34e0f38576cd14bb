/**
 * Main-thread CPU of the pages a traveler lands on, and where it goes: builds the SPA with source maps,
 * starts the stack as `npm start` does (bench/support/app-stack.ts), signs a traveler in, and loads each
 * page several times in Debian's Chromium with the CPU slowed 4x (Lighthouse's mobile profile), recording
 * a CPU profile from the navigation until the page has drawn its results. Prints, per page, the busy
 * main-thread time of one load (every sample that is not idle) and the source files and functions that
 * took most of it, named through the build's source maps.
 *
 * Where Lighthouse says how long a page blocks, this says which code does: run it before and after a
 * change (or `--dist` on two builds, alternately, since the machine's load moves the figures).
 *
 * With --long-tasks it also lists each load's longest stretches of main-thread work (the samples between
 * two idle ones: the tasks Lighthouse counts as blocking when they pass 50 ms at this CPU rate), each with
 * the functions that took most of it, self and inclusive of what they called.
 *
 * The CPU profile counts the page's scripts; the renderer's own work on the main thread (style, layout,
 * paint) shows in it only as `(program)`, which it leaves out. With --rendering it also loads each page
 * `--loads` more times under a Chrome trace and prints that work per load, by kind, with how many times
 * each ran (an animation the compositor cannot run by itself is painted again on every frame).
 *
 * Flags: --pages stays,flights,home (any of start, home, flights, stays, trip), --loads 3, --top 12,
 * --long-tasks, --rendering, --dist <a built SPA with source maps> (default: builds one into a temporary folder),
 * --chromium <path>.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { Page } from 'puppeteer-core';
import { buildSpa, DEBIAN_CHROMIUM, signIn, travelerPages, withAppInBrowser } from './support/app-stack.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: 'stays,flights,home' },
    loads: { type: 'string', default: '3' },
    top: { type: 'string', default: '12' },
    'long-tasks': { type: 'boolean', default: false },
    rendering: { type: 'boolean', default: false },
    dist: { type: 'string' },
    chromium: { type: 'string', default: DEBIAN_CHROMIUM },
  },
});
const root = path.resolve(import.meta.dirname, '..');
const loads = Math.max(1, Number(values.loads));
const top = Math.max(1, Number(values.top));
const wanted = values.pages.split(',');

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The page has drawn what it was opened for: a results list no longer busy, or its heading. Asked every
 * 100 ms rather than on every frame, so that the question costs the page's main thread little; what it
 * costs is left out of the figures (harnessNodes).
 */
async function drawn(page: Page, name: string): Promise<void> {
  if (name === 'stays' || name === 'flights') {
    await page.waitForFunction(
      () =>
        document.querySelector('ol.card-list')?.getAttribute('aria-busy') === 'false' &&
        document.querySelectorAll('ol.card-list > li').length > 1,
      { timeout: 120_000, polling: 100 },
    );
  } else {
    await page.waitForFunction(
      () => {
        const heading = document.querySelector('main h1, main h2');
        return heading !== null && heading.getClientRects().length > 0;
      },
      { timeout: 60_000, polling: 100 },
    );
  }
  // The work a page does right after it has drawn (effects, prefetches) belongs to its load too.
  await sleep(1_500);
}

/** Where a sample's code came from, named through the build's source maps. */
class SourceNames {
  readonly #maps = new Map<string, TraceMap | null>();
  readonly #dist: string;
  constructor(dist: string) {
    this.#dist = dist;
  }

  /**
   * The function ("name file:line") and the source file (a package, or the app's own file) of a minified
   * position; the chunk's file name when it has no source map.
   */
  place(url: string, line: number, column: number, minifiedName: string): { fn: string; file: string } {
    const chunk = url.split('/').pop() ?? url;
    const map = this.#map(chunk);
    const fallbackName = minifiedName || '(anonymous)';
    if (!map) return { fn: `${fallbackName} ${chunk}`, file: chunk };
    const original = originalPositionFor(map, { line: line + 1, column });
    const source = this.#source(original.source);
    const ownFile = source.startsWith('web/') || source.startsWith('shared/');
    const inPackage = /^(@[^/]+\/[^/]+|[^/]+)\//.exec(source);
    return {
      fn: `${original.name ?? fallbackName} ${source}:${original.line ?? '?'}`,
      file: ownFile ? source : (inPackage?.[1] ?? source),
    };
  }

  #map(chunk: string): TraceMap | null {
    if (!this.#maps.has(chunk)) {
      const mapFile = path.join(this.#dist, 'assets', `${chunk}.map`);
      this.#maps.set(chunk, existsSync(mapFile) ? new TraceMap(readFileSync(mapFile, 'utf8')) : null);
    }
    return this.#maps.get(chunk) ?? null;
  }

  /** A package's path inside it, or the app's path from the root. */
  #source(source: string | null): string {
    if (!source) return '?';
    const inPackage = /node_modules\/(.+)$/.exec(source);
    return inPackage?.[1] ?? path.relative(root, path.resolve(this.#dist, 'assets', source));
  }
}

/**
 * The profile's nodes that are the benchmark's own work in the page: Puppeteer's injected scripts (their
 * URLs are `pptr:`), asking whether the page has drawn, and what they call. Their samples count as idle.
 */
function harnessNodes(profile: CpuProfile): Set<number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const harness = new Set<number>();
  const mark = (id: number) => {
    if (harness.has(id)) return;
    harness.add(id);
    for (const child of byId.get(id)?.children ?? []) mark(child);
  };
  for (const node of profile.nodes) if (node.callFrame.url.startsWith('pptr:')) mark(node.id);
  return harness;
}

/** Self time (µs) by function and by source file over the loads. */
function attribute(profiles: CpuProfile[], names: SourceNames) {
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busy = 0;
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    const harness = harnessNodes(profile);
    profile.samples.forEach((id, index) => {
      const frame = nodes.get(id);
      const us = profile.timeDeltas[index] ?? 0;
      if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') return;
      if (harness.has(id)) return;
      busy += us;
      const { fn, file } = frame.url.startsWith('http')
        ? names.place(frame.url, frame.lineNumber, frame.columnNumber, frame.functionName)
        : { fn: frame.functionName || '(native)', file: `(browser: ${frame.functionName || 'native'})` };
      add(byFunction, fn, us);
      add(byFile, file, us);
    });
  }
  return { busy, byFunction, byFile };
}

async function profileLoads(page: Page, name: string, url: string): Promise<CpuProfile[]> {
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const profiles: CpuProfile[] = [];
  for (let load = 0; load < loads; load++) {
    await page.goto('about:blank');
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    await drawn(page, name);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    profiles.push(profile);
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  return profiles;
}

/** A stretch of main-thread work longer than this (µs, at 4x) is a long task. */
const LONG_TASK_US = 50_000;

/**
 * The long tasks of one load: runs of samples with no idle one between them, at least LONG_TASK_US long,
 * the longest first, each with its start (ms from the profile's start) and its functions by self and by
 * inclusive time.
 */
function longTasks(profile: CpuProfile, names: SourceNames) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const harness = harnessNodes(profile);
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const named = new Map<number, string>();
  const nameOf = (id: number): string => {
    let name = named.get(id);
    if (name === undefined) {
      const frame = nodes.get(id)?.callFrame;
      name = !frame
        ? '?'
        : frame.url.startsWith('http')
          ? names.place(frame.url, frame.lineNumber, frame.columnNumber, frame.functionName).fn
          : frame.functionName || '(native)';
      named.set(id, name);
    }
    return name;
  };
  const tasks: { startUs: number; us: number; self: Map<string, number>; inclusive: Map<string, number> }[] =
    [];
  let current: (typeof tasks)[number] | undefined;
  let at = 0;
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    at += us;
    if (nodes.get(id)?.callFrame.functionName === '(idle)' || harness.has(id)) {
      if (current && current.us >= LONG_TASK_US) tasks.push(current);
      current = undefined;
      return;
    }
    current ??= { startUs: at, us: 0, self: new Map(), inclusive: new Map() };
    current.us += us;
    const self = nameOf(id);
    current.self.set(self, (current.self.get(self) ?? 0) + us);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node)) {
      const name = nameOf(node);
      if (seen.has(name) || name === '(root)' || name === '(program)') continue;
      seen.add(name);
      current.inclusive.set(name, (current.inclusive.get(name) ?? 0) + us);
    }
  });
  if (current && current.us >= LONG_TASK_US) tasks.push(current);
  return tasks.sort((left, right) => right.us - left.us);
}

function reportLongTasks(name: string, profiles: CpuProfile[], names: SourceNames): void {
  profiles.forEach((profile, load) => {
    const tasks = longTasks(profile, names);
    const blocking = tasks.reduce((sum, task) => sum + task.us - LONG_TASK_US, 0);
    console.log(
      `\n${name}, load ${load + 1}: ${tasks.length} tasks over 50 ms, ${Math.round(blocking / 1000)} ms over 50 ms in all`,
    );
    for (const task of tasks.slice(0, 5)) {
      const list = (map: Map<string, number>, count: number) =>
        [...map]
          .sort((left, right) => right[1] - left[1])
          .slice(0, count)
          .map(([fn, us]) => `${fn} ${Math.round(us / 1000)} ms`)
          .join('; ');
      console.log(`  ${Math.round(task.us / 1000)} ms at ${Math.round(task.startUs / 1000)} ms`);
      console.log(`    self: ${list(task.self, 5)}`);
      console.log(`    inclusive: ${list(task.inclusive, 12)}`);
    }
  });
}

/** The renderer's main-thread work a trace names, by its trace event. */
const RENDERING_EVENTS: Record<string, string> = {
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  Layerize: 'layerize',
};

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/** Loads the page `loads` times under a Chrome trace; per kind of rendering work, its time (µs) and count. */
async function traceRendering(page: Page, name: string, url: string) {
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const totals = new Map<string, { us: number; count: number }>();
  for (let load = 0; load < loads; load++) {
    await page.goto('about:blank');
    await page.tracing.start({ categories: ['devtools.timeline'] });
    await page.goto(url, { waitUntil: 'load' });
    await drawn(page, name);
    const trace = await page.tracing.stop();
    const { traceEvents } = JSON.parse(new TextDecoder().decode(trace)) as { traceEvents: TraceEvent[] };
    const mainThreads = new Set(
      traceEvents
        .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
        .map((event) => `${event.pid}:${event.tid}`),
    );
    for (const event of traceEvents) {
      const kind = RENDERING_EVENTS[event.name];
      if (!kind || event.ph !== 'X' || !mainThreads.has(`${event.pid}:${event.tid}`)) continue;
      const total = totals.get(kind) ?? { us: 0, count: 0 };
      total.us += event.dur ?? 0;
      total.count += 1;
      totals.set(kind, total);
    }
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  return totals;
}

function reportRendering(name: string, totals: Map<string, { us: number; count: number }>): void {
  const all = [...totals.values()].reduce((sum, total) => sum + total.us, 0);
  console.log(
    `\n${name}: ${ms(all)} of the renderer's own main-thread work per load (trace, mean of ${loads})`,
  );
  printTable(
    ['work', 'per load', 'times per load'],
    Object.values(RENDERING_EVENTS).map((kind) => {
      const total = totals.get(kind) ?? { us: 0, count: 0 };
      return [kind, ms(total.us), String(Math.round(total.count / loads))];
    }),
  );
}

const ms = (us: number) => `${Math.round(us / 1000 / loads)} ms`;
const ranked = (map: Map<string, number>) => [...map].sort((left, right) => right[1] - left[1]).slice(0, top);

function report(name: string, profiles: CpuProfile[], names: SourceNames): void {
  const { busy, byFunction, byFile } = attribute(profiles, names);
  console.log(`\n${name}: ${ms(busy)} of main-thread CPU per load (4x slower CPU, mean of ${loads})`);
  printTable(
    ['file', 'per load'],
    ranked(byFile).map(([file, us]) => [file, ms(us)]),
  );
  printTable(
    ['function', 'per load'],
    ranked(byFunction).map(([fn, us]) => [fn, ms(us)]),
  );
  if (values['long-tasks']) reportLongTasks(name, profiles, names);
}

const ownBuild =
  values.dist === undefined ? mkdtempSync(path.join(os.tmpdir(), 'wayfare-page-cpu-')) : undefined;
const dist = values.dist === undefined ? (ownBuild as string) : path.resolve(values.dist);
if (ownBuild) buildSpa(['--sourcemap', '--outDir', ownBuild, '--emptyOutDir']);
try {
  await withAppInBrowser({ chromium: values.chromium, webDist: dist }, async (page, origin) => {
    const names = new SourceNames(dist);
    const measure = async (name: string, url: string) => {
      report(name, await profileLoads(page, name, url), names);
      if (values.rendering) reportRendering(name, await traceRendering(page, name, url));
    };
    if (wanted.includes('start')) await measure('start', `${origin}/`);
    await signIn(page, origin);
    const pages = await travelerPages(page, origin);
    for (const name of ['home', 'flights', 'stays', 'trip'] as const) {
      if (wanted.includes(name)) await measure(name, pages[name]);
    }
  });
} finally {
  if (ownBuild) rmSync(ownBuild, { recursive: true, force: true });
}
