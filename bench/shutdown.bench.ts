/**
 * `npm run bench -- shutdown`: how long the BFF takes to shut down while browsers hold notification
 * streams open. Each run starts a BFF in this process against the BFF tests' scripted travel API, signs
 * `--travelers` travelers in with two tabs each (one browser stream per tab, the two tabs of a traveler
 * sharing one upstream stream), waits for every stream to be live, then closes the BFF (as SIGTERM does)
 * while the browsers keep reading. It measures, from the call to close: when every browser stream had
 * its `reconnect` farewell and was ended by the server, and when the close finished.
 *
 * Target: the close finishes in under 3 s. Exits non-zero above it, or when a stream was not told to
 * reconnect.
 *
 * Flags: --runs <n> (default 3), --travelers <n> (default 100).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { BrowserStream } from '../bff/test-support/browser-stream.ts';
import { ScriptedTravelApi } from '../bff/test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET } from '../bff/test-support/start-test-bff.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    travelers: { type: 'string', default: '100' },
  },
});
const RUNS = Number(values.runs);
const TRAVELERS = Number(values.travelers);
const TARGET_MS = 3000;
const STEP_TIMEOUT_MS = 60_000;

interface Shutdown {
  streamsEndedMs: number;
  closedMs: number;
}

const travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
const shutdowns: Shutdown[] = [];
let failed = false;
try {
  for (let run = 0; run < RUNS; run += 1) {
    const bff = await startTestBff({ TRAVEL_API_URL: travelApi.url });
    const tabs: BrowserStream[] = [];
    for (let traveler = 0; traveler < TRAVELERS; traveler += 1) {
      const id = `5f1c2a7e-0b1d-4c5e-9a01-${String(run * TRAVELERS + traveler + 1).padStart(12, '0')}`;
      const { headers } = await bff.signIn(id);
      for (const tab of ['a', 'b']) {
        const tabId = `tab-${String(traveler).padStart(8, '0')}-${tab}`;
        const stream = await BrowserStream.open(
          `${bff.url}/api/notifications/stream?tab=${tabId}&visible=0`,
          {
            headers: { ...headers, accept: 'text/event-stream' },
          },
        );
        if (stream.response.status !== 200) throw new Error(`stream refused: ${stream.response.status}`);
        tabs.push(stream);
      }
    }
    await Promise.all(
      tabs.map((tab) =>
        tab.next((event) => event.event === 'status' && event.data.includes('"live"'), {
          timeoutMs: STEP_TIMEOUT_MS,
        }),
      ),
    );

    const started = performance.now();
    let streamsEndedMs = 0;
    const allEnded = Promise.all(tabs.map((tab) => tab.ended)).then(
      () => (streamsEndedMs = performance.now() - started),
    );
    await bff.close();
    const closedMs = performance.now() - started;
    await allEnded;
    shutdowns.push({ streamsEndedMs, closedMs });
    const unwarned = tabs.filter((tab) => tab.events.at(-1)?.event !== 'reconnect').length;
    if (unwarned > 0) {
      console.error(`run ${run + 1}: ${unwarned} streams ended without their reconnect farewell`);
      failed = true;
    }
  }
} finally {
  await travelApi.close();
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const column = (field: keyof Shutdown) => shutdowns.map((shutdown) => shutdown[field]);
console.log(
  `BFF closed with ${TRAVELERS * 2} browser notification streams open (${TRAVELERS} travelers, two tabs ` +
    `each), ${RUNS} runs, from the call to close:`,
);
printTable(
  ['', 'median', 'max', 'target (max)', 'result'],
  [
    [
      'every stream told to reconnect and ended',
      seconds(median(column('streamsEndedMs'))),
      seconds(Math.max(...column('streamsEndedMs'))),
      '-',
      '-',
    ],
    [
      'close finished',
      seconds(median(column('closedMs'))),
      seconds(Math.max(...column('closedMs'))),
      seconds(TARGET_MS),
      Math.max(...column('closedMs')) < TARGET_MS ? 'ok' : 'FAIL',
    ],
  ],
);
console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
if (failed || Math.max(...column('closedMs')) >= TARGET_MS) process.exitCode = 1;
