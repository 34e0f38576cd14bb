import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http2, { type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
import { notificationFixture, ScriptedTravelApi } from './test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET, type TestBff } from './test-support/start-test-bff.ts';

/**
 * The BFF given a certificate: HTTPS with HTTP/2 for clients that offer it and HTTP/1.1 for the others,
 * each serving the same app, API, streams, cookies and anti-forgery gate.
 */

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000002';
const PUBLIC_ORIGIN = 'https://localhost';
const INDEX_HTML =
  '<!doctype html><html><head><title>Wayfare</title></head><body><div id="root"></div></body></html>';

let folder: string;
let ca: Buffer;
let travelApi: ScriptedTravelApi;
let bff: TestBff;
let port: number;
let h2: ClientHttp2Session;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'wayfare-https-'));
  const files = await ensureLocalCertificates(path.join(folder, 'tls'), 'Wayfare test');
  ca = await readFile(files.caFile);
  const webDist = path.join(folder, 'web');
  await mkdir(webDist);
  await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  bff = await startTestBff({
    TRAVEL_API_URL: travelApi.url,
    PUBLIC_ORIGIN,
    WEB_DIST_DIR: webDist,
    TLS_CERT_FILE: files.certFile,
    TLS_KEY_FILE: files.keyFile,
  });
  port = Number(new URL(bff.url).port);
  h2 = http2.connect(`https://localhost:${port}`, { ca });
  await new Promise<void>((resolve, reject) => {
    h2.once('connect', () => resolve());
    h2.once('error', reject);
  });
});

afterAll(async () => {
  h2.close();
  await bff.close();
  await travelApi.close();
  await rm(folder, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function overHttp2(headers: http2.OutgoingHttpHeaders, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = h2.request({ ':method': 'GET', ...headers }, { endStream: body === undefined });
    if (body !== undefined) stream.end(body);
    let text = '';
    let answer: IncomingHttpHeaders = {};
    stream.setEncoding('utf8');
    stream.on('response', (received) => (answer = received));
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve({ status: Number(answer[':status']), headers: answer, body: text }));
    stream.on('error', reject);
  });
}

/** HTTPS without ALPN's h2: what an HTTP/1.1-only client (an old proxy, a probe) gets. */
function overHttp1(
  method: string,
  pathname: string,
  headers: Record<string, string>,
): Promise<Answer & { httpVersion: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      { host: 'localhost', port, path: pathname, method, headers, ca },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text,
            httpVersion: response.httpVersion,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** A signed-in traveler's tab opening its notification stream over HTTP/2. */
async function openNotificationStream(tab: string): Promise<http2.ClientHttp2Stream> {
  const { headers } = await bff.signIn(TRAVELER);
  return h2.request({
    ':method': 'GET',
    ':path': `/api/notifications/stream?tab=${tab}&visible=1`,
    accept: 'text/event-stream',
    ...headers,
  });
}

/** The answer's headers, and a wait for text to have arrived on the stream. */
async function readEvents(stream: http2.ClientHttp2Stream) {
  stream.setEncoding('utf8');
  let text = '';
  stream.on('data', (chunk: string) => (text += chunk));
  const response = await new Promise<IncomingHttpHeaders>((resolve) => stream.once('response', resolve));
  const arrived = async (needle: string): Promise<void> => {
    while (!text.includes(needle)) {
      if (stream.readableEnded) throw new Error(`The stream ended without ${needle}: ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { response, arrived, text: () => text };
}

describe('the BFF over HTTPS', () => {
  it('speaks HTTP/2 to a client that offers it (ALPN) and serves the app', async () => {
    expect(h2.alpnProtocol).toBe('h2');
    const page = await overHttp2({ ':path': '/trips', accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['strict-transport-security']).toBeDefined();
  });

  it('answers an API call over HTTP/2 with the session cookie it reads', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    expect(headers.cookie).toMatch(/^__Host-wayfare_session=/);
    travelApi.persisted.push(notificationFixture('n-h2-list'));
    const list = await overHttp2({
      ':path': '/api/notifications',
      ...headers,
      origin: PUBLIC_ORIGIN,
      'sec-fetch-site': 'same-origin',
    });
    expect(list.status).toBe(200);
    expect(list.body).toContain('n-h2-list');
  });

  it('relays a notification stream over HTTP/2: headers without connection-specific ones, events as they come', async () => {
    const stream = await openNotificationStream('tab-over-h2');
    const { response, arrived } = await readEvents(stream);
    expect(response[':status']).toBe(200);
    expect(response['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.connection).toBeUndefined();
    expect(response['transfer-encoding']).toBeUndefined();
    await arrived('"live"');
    travelApi.emit(notificationFixture('n-h2-live'));
    await arrived('id: n-h2-live');
    stream.close();
  });

  it('clears the __Host- session cookie, Secure, on sign-out over HTTP/2', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const logout = await overHttp2({
      ':method': 'POST',
      ':path': '/auth/logout',
      ...headers,
      origin: PUBLIC_ORIGIN,
    });
    expect(logout.status).toBe(200);
    const cookies = [logout.headers['set-cookie'] ?? []].flat().join('\n');
    expect(cookies).toMatch(/__Host-wayfare_session=;/);
    expect(cookies).toMatch(/; Secure/);
  });

  it('refuses a cross-site request over HTTP/2 as over HTTP/1.1', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const crossSite = { ...headers, origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' };
    const refusedH2 = await overHttp2({
      ':method': 'POST',
      ':path': '/api/push/subscriptions',
      ...crossSite,
    });
    const refusedH1 = await overHttp1('POST', '/api/push/subscriptions', crossSite);
    expect(refusedH1.httpVersion).toBe('1.1');
    for (const refused of [refusedH2, refusedH1]) {
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'CSRF_REJECTED' } });
    }
  });

  it('serves HTTP/1.1 to a client that does not offer h2', async () => {
    const page = await overHttp1('GET', '/', { accept: 'text/html' });
    expect(page.httpVersion).toBe('1.1');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });

  it('on shutdown tells an open HTTP/2 stream to reconnect, ends it and closes', async () => {
    const stream = await openNotificationStream('tab-shutdown');
    const { arrived, text } = await readEvents(stream);
    await arrived('"live"');
    const ended = new Promise<void>((resolve) => stream.once('end', resolve));
    await bff.close();
    await ended;
    expect(text()).toMatch(/retry: \d+/);
  });
});
