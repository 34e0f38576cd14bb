import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { StayDestinationsResponseSchema } from '#shared/upstream/destinations.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { signedFetch } from './test-support/signed-fetch.ts';
import { TEST_CONSUMER } from './test-support/start-travel-api.ts';
import { startTestIdentity, TEST_AUDIENCE } from './test-support/test-identity.ts';

/** A spawned stand-in starts in seconds, many more on a machine that runs other suites at once. */
const SPAWNED_SERVER_TEST_MS = 60_000;

describe('npm run start:travel-api', () => {
  it(
    'starts with no configuration but a free port and a data folder, answers, and closes gracefully on SIGTERM',
    async () => {
      // Start-up time is measured by `npm run bench -- startup`, not here.
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'travel-api-start-'));
      const child = spawn(process.execPath, [path.join(import.meta.dirname, 'run-travel-api.ts')], {
        env: { PATH: process.env.PATH ?? '', TRAVEL_API_PORT: '0', TRAVEL_API_DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const address = await listeningAddress(child);
        const unsigned = await fetch(`${address}/v1/app/update-check`);
        expect(unsigned.status).toBe(401);
        const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        expect(await exit).toBe(0);
      } finally {
        child.kill('SIGKILL');
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    SPAWNED_SERVER_TEST_MS,
  );
});

describe('graceful shutdown of the streams', () => {
  it(
    'ends every stream in flight at SIGTERM with `done`, or refuses it with 503 RETRY_LATER; none is cut',
    async () => {
      // The spec, Events: "GET /v1/me/notifications/stream | done | Empty object | The server shuts the stream
      // down gracefully; the client reconnects if it still needs real-time delivery"
      const identity = await startTestIdentity();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'travel-api-shutdown-'));
      const child = spawn(process.execPath, [path.join(import.meta.dirname, 'run-travel-api.ts')], {
        env: {
          PATH: process.env.PATH ?? '',
          TRAVEL_API_PORT: '0',
          TRAVEL_API_DATA_DIR: dataDir,
          TRAVEL_API_PUSH_WEBHOOK_URL: '',
          IDENTITY_ISSUER: identity.issuer,
          TRAVEL_API_AUDIENCE: TEST_AUDIENCE,
          TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: TEST_CONSUMER.slug,
          TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: TEST_CONSUMER.secret,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const baseUrl = await listeningAddress(child);
        const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
        const token = await identity.token();
        const checkIn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
        const checkOut = new Date(Date.now() + 32 * 86_400_000).toISOString().slice(0, 10);
        const found = await signedFetch(baseUrl, { path: '/v1/stays/destinations?query=lisbon', token });
        const { items } = StayDestinationsResponseSchema.parse(await found.json());
        const city = items.find((item) => item.type === 'city');
        const property = items.find((item) => item.type === 'property');
        const stayTerms = { checkIn, checkOut, rooms: [{ adults: 2 }] };
        const requests: StreamRequest[] = Array.from({ length: 20 }, (_, index) =>
          index % 3 === 0
            ? { path: '/v1/me/notifications/stream', token }
            : index % 3 === 1
              ? { path: '/v1/stays/fares', token, json: { property, ...stayTerms } }
              : { path: '/v1/stays/search', token, json: { destination: city, ...stayTerms } },
        );
        // A first call fetches the identity's keys, so that the streams below open at the pace of the server.
        expect((await signedFetch(baseUrl, { path: '/v1/profile', token })).status).toBe(200);
        // Each request leaves at a random moment in the first 600 ms; SIGTERM follows a random 200 to 400 ms
        // once two notification streams are open, so requests are caught at every stage, from connecting to
        // streaming.
        let opened = 0;
        let signalled = false;
        let twoOpen: () => void = () => undefined;
        const twoNotificationStreamsOpen = new Promise<void>((resolve) => (twoOpen = resolve));
        const outcomes = requests.map((request) =>
          sleep(Math.random() * 600).then(() =>
            streamOutcome(
              baseUrl,
              request,
              () => {
                if (request.path === '/v1/me/notifications/stream' && ++opened === 2) twoOpen();
              },
              () => signalled,
            ),
          ),
        );
        await Promise.all([twoNotificationStreamsOpen, sleep(200 + Math.random() * 200)]);
        child.kill('SIGTERM');
        signalled = true;
        const results = await Promise.all(outcomes);
        for (const [index, result] of results.entries()) {
          const label = `${requests[index]!.path}: ${JSON.stringify(result)}`;
          if (result.kind === 'refused') continue;
          expect(result.kind, label).toBe('answered');
          if (result.kind !== 'answered') continue;
          if (result.status === 200) {
            expect(result.complete, label).toBe(true);
            expect(result.events.at(-1), label).toBe('done');
          } else {
            expect(result.status, label).toBe(503);
            expect(ErrorEnvelopeSchema.parse(JSON.parse(result.body)).error, label).toMatchObject({
              code: 'SERVICE_UNAVAILABLE',
              recoveryAction: 'RETRY_LATER',
            });
          }
        }
        // The notification streams open before SIGTERM were ended with `done`.
        const ended = results.filter(
          (result, index) =>
            requests[index]!.path === '/v1/me/notifications/stream' &&
            result.kind === 'answered' &&
            result.status === 200,
        );
        expect(ended.length).toBeGreaterThanOrEqual(2);
        expect(await exit).toBe(0);
      } finally {
        child.kill('SIGKILL');
        await identity.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    SPAWNED_SERVER_TEST_MS,
  );
});

interface StreamRequest {
  path: string;
  token: string;
  json?: unknown;
}

type StreamOutcome =
  | { kind: 'answered'; status: number; body: string; events: string[]; complete: boolean }
  | { kind: 'refused'; reset?: true }
  | { kind: 'failed'; error: string };

/**
 * One signed stream request on a connection of its own, read to its end: the status, the body, the names of
 * its events and whether the response arrived whole; `onOpen` is called when a 200 begins. `refused` when
 * the server had stopped listening: no connection could be made, or one made after SIGTERM (`signalled()`)
 * was reset before any answer, because the kernel had completed it just as the listener closed (closing a
 * listening socket resets the connections queued on it; no server can answer those). `failed` for anything
 * else that went wrong on the wire, including a reset of a connection made before SIGTERM.
 */
function streamOutcome(
  baseUrl: string,
  request: StreamRequest,
  onOpen: () => void,
  signalled: () => boolean,
): Promise<StreamOutcome> {
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const method = body === undefined ? 'GET' : 'POST';
  const headers = {
    ...signedHeaders({
      consumer: TEST_CONSUMER.slug,
      secret: TEST_CONSUMER.secret,
      method,
      path: request.path,
      body,
    }),
    authorization: `Bearer ${request.token}`,
    accept: 'text/event-stream',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  return new Promise((resolve) => {
    const outgoing = httpRequest(`${baseUrl}${request.path}`, { method, headers, agent: false });
    let connectedAfterSignal = false;
    outgoing.on('socket', (socket) => socket.once('connect', () => (connectedAfterSignal = signalled())));
    // 'error' before 'response': no byte of an answer came.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      else if (error.code === 'ECONNRESET' && connectedAfterSignal) resolve({ kind: 'refused', reset: true });
      else resolve({ kind: 'failed', error: String(error) });
    });
    outgoing.on('response', (response) => {
      if (response.statusCode === 200) onOpen();
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('close', () =>
        resolve({
          kind: 'answered',
          status: response.statusCode ?? 0,
          body: text,
          events: [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]!),
          complete: response.complete,
        }),
      );
    });
    outgoing.end(body);
  });
}

/** The address the spawned server logs once it listens. */
function listeningAddress(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) => {
      output += text;
      const match = /Server listening at (http:\/\/[^"]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}
