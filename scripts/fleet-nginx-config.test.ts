import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { startTestBff, type TestBff } from '../bff/test-support/start-test-bff.ts';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
import { askFront, type FrontAnswer, untilServedThroughFront } from './fleet-front-probe.ts';
import { fleetNginxConfig } from './fleet-nginx-config.ts';
import { freePort, ServiceGroup } from './service-group.ts';

const root = path.resolve(import.meta.dirname, '..');
const example = await readFile(path.join(root, 'docs/scale-out-nginx.conf'), 'utf8');
const settings = {
  example,
  frontPort: 8443,
  bffPorts: [41001, 41002],
  certFile: '/run/fleet/tls/localhost.pem',
  keyFile: '/run/fleet/tls/localhost-key.pem',
  runDir: '/run/fleet/nginx',
};

const nginx = ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((candidate) => existsSync(candidate));

describe('the fleet nginx configuration', () => {
  it('is the documented example with the local instances, front port and certificate', () => {
    const config = fleetNginxConfig(settings);
    expect(config).toContain('server 127.0.0.1:41001 max_fails=0;');
    expect(config).toContain('server 127.0.0.1:41002 max_fails=0;');
    expect(config).not.toMatch(/10\.0\.1\.\d+/);
    expect(config).toMatch(/listen 127\.0\.0\.1:8443 ssl http2;/);
    expect(config).toContain('ssl_certificate     /run/fleet/tls/localhost.pem;');
    expect(config).toContain('ssl_certificate_key /run/fleet/tls/localhost-key.pem;');
    expect(config).toContain('pid /run/fleet/nginx/nginx.pid;');
    // The example's SSE rules come through unchanged.
    expect(config).toContain(
      'location ~ ^/api/(notifications/stream|stays/search|stays/priced-search|stays/fares)$',
    );
    expect(config).toContain('proxy_buffering off;');
    // A draining instance's 503 to a GET is retried on the next instance (a rolling restart fails nothing).
    expect(config).toContain('proxy_next_upstream error timeout http_502 http_503 http_504;');
    expect(config).toContain('proxy_next_upstream_tries 3;');
    // A stay search an instance never answered goes to the next one: it is a POST that changes nothing.
    expect(config).toMatch(
      /stays\/fares\)\$ \{[^}]*proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;[^}]*\}/,
    );
    // So is a booking or a rebooking: made once by the Idempotency-Key the BFF requires.
    expect(config).toMatch(
      /\^\/api\/\(bookings\|rebookings\)\$ \{[^}]*proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;[^}]*\}/,
    );
    expect(config).toContain('proxy_connect_timeout 2s;');
    // Text the instances sent plain is gzipped at the front; never an event stream.
    expect(config).toMatch(/gzip on;[^]*gzip_types application\/json/);
    expect(config).toMatch(/stays\/fares\)\$ \{[^}]*gzip off;[^}]*\}/);
  });

  it('holds 10,000 open streams: two connections each, room for them all in one worker', () => {
    const config = fleetNginxConfig(settings);
    expect(config).toMatch(/^worker_processes auto;$/m);
    const connections = Number(/^\s*worker_connections (\d+);$/m.exec(config)?.[1]);
    const files = Number(/^worker_rlimit_nofile (\d+);$/m.exec(config)?.[1]);
    // A stream is a browser's connection (HTTP/1.1 at worst) and one to an instance.
    expect(connections).toBeGreaterThanOrEqual(2 * 10_000);
    // Every connection is an open file of its worker.
    expect(files).toBeGreaterThanOrEqual(connections);
    // Keep-alive to the instances: idle connections kept, HTTP/1.1 without `Connection: close`, closed by
    // nginx before an instance closes them (Fastify's keepAliveTimeout, 72 s).
    expect(config).toMatch(/upstream wayfare_bff \{[^}]*keepalive \d+;[^}]*keepalive_timeout 60s;[^}]*\}/);
    expect(config).toContain('proxy_http_version 1.1;');
    expect(config).toContain('proxy_set_header Connection "";');
    // The streams: nothing buffered, an hour between reads or writes.
    expect(config).toMatch(
      /stays\/fares\)\$ \{[^}]*proxy_buffering off;[^}]*proxy_read_timeout 1h;[^}]*proxy_send_timeout 1h;[^}]*\}/,
    );
  });

  it('sizes the workers as the example says, the figures an operator copies', () => {
    const config = fleetNginxConfig({
      ...settings,
      example: example.replace('worker_connections 32768;', 'worker_connections 50000;'),
    });
    expect(config).toMatch(/^\s*worker_connections 50000;$/m);
    expect(() =>
      fleetNginxConfig({ ...settings, example: example.replace(/^#\s+worker_rlimit_nofile.*$/m, '') }),
    ).toThrow(/expected one `worker_rlimit_nofile` line of the capacity comment, found 0/);
  });

  it('is what the README prints, line for line, where the README does not abridge it', async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const printed = /```nginx\n([^]*?)```/.exec(readme)?.[1] ?? '';
    const exampleLines = new Set(example.split('\n'));
    const differing = printed
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('# ...') && !exampleLines.has(line));
    expect(printed).toContain('worker_connections');
    expect(differing).toEqual([]);
  });

  it('says which line of the example it no longer finds', () => {
    expect(() =>
      fleetNginxConfig({ ...settings, example: example.replace('listen 443', 'listen 8080') }),
    ).toThrow(/expected one `listen 443 ssl http2;`, found 0/);
  });

  it.runIf(nginx !== undefined)('passes nginx -t', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-nginx-'));
    try {
      const tls = await ensureLocalCertificates(path.join(dir, 'tls'), 'Wayfare test');
      const config = path.join(dir, 'nginx.conf');
      await writeFile(config, fleetNginxConfig({ ...settings, ...tls, runDir: dir }));
      const result = spawnSync(nginx ?? 'nginx', ['-t', '-p', dir, '-c', config, '-e', 'stderr'], {
        encoding: 'utf8',
      });
      expect(result.stderr).toContain('test is successful');
      expect(result.status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A real nginx with the fleet configuration as `npm run start:fleet` runs it, on a free loopback port, its
 * files in a temporary folder: `prepare` names its port and certificate authority, `start` puts it in
 * front of the given instances.
 */
class TestFront {
  readonly #group = new ServiceGroup(root, () => undefined);
  dir = '';
  port = 0;
  ca = '';
  #tls: { certFile: string; keyFile: string } | undefined;

  async prepare(): Promise<void> {
    this.dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-front-'));
    // nginx's workers (an unprivileged user when the test runs as root) write their temporary files here.
    await chmod(this.dir, 0o755);
    const tls = await ensureLocalCertificates(path.join(this.dir, 'tls'), 'Wayfare test');
    this.#tls = { certFile: tls.certFile, keyFile: tls.keyFile };
    this.ca = await readFile(tls.caFile, 'utf8');
    this.port = await freePort();
  }

  async start(bffPorts: number[]): Promise<void> {
    const config = path.join(this.dir, 'nginx.conf');
    await writeFile(
      config,
      fleetNginxConfig({ ...settings, ...this.#tls, frontPort: this.port, bffPorts, runDir: this.dir }),
    );
    await this.#group.start({
      name: 'nginx',
      command: nginx ?? 'nginx',
      args: ['-p', this.dir, '-c', config, '-e', 'stderr'],
      port: this.port,
      env: {},
    });
  }

  async stop(): Promise<void> {
    await this.#group.stopAll();
    if (this.dir !== '') await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * The fleet's front as `npm run start:fleet` runs it: a real nginx with the fleet configuration, on a free
 * loopback port, in front of one BFF instance that believes X-Forwarded-For from the front's address only.
 */
describe.runIf(nginx !== undefined)('the fleet front, through a real nginx', () => {
  let bff: TestBff;
  const front = new TestFront();

  beforeAll(async () => {
    await front.prepare();
    bff = await startTestBff({
      PUBLIC_ORIGIN: `https://localhost:${front.port}`,
      TRUST_PROXY: '127.0.0.1',
      // Nothing listens there: a guest session the limit lets through fails at once, after counting.
      TRAVEL_API_URL: `http://127.0.0.1:${await freePort()}`,
      UPSTREAM_RETRY_BUDGET_MS: '0',
    });
    await front.start([Number(new URL(bff.url).port)]);
  });

  afterAll(async () => {
    await front.stop();
    await bff?.close();
  });

  function ask(
    target: string,
    options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
  ): Promise<FrontAnswer> {
    return askFront(front.port, front.ca, target, options);
  }

  function expectEnvelope(answer: FrontAnswer, status: number, code: string): void {
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const { error } = ErrorEnvelopeSchema.parse(JSON.parse(answer.body));
    expect(error).toMatchObject({ code, details: [], recoveryAction: 'FIX_INPUT', retryAfterSeconds: null });
    expect(error.message).not.toBe('');
    expect(answer.headers.server).toBe('nginx');
  }

  it('limits one client to 10 guest sessions a minute whatever X-Forwarded-For it sends', async () => {
    const forged = ['203.0.113.7', '<script>', '198.51.100.1, 203.0.113.8', 'unknown'];
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 14; attempt += 1) {
      const answer = await ask('/api/guest-session', {
        method: 'POST',
        headers: {
          'x-requested-with': 'wayfare',
          'x-forwarded-for': (forged[attempt % forged.length] ?? '').replace('7', String(attempt)),
        },
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
  });

  it('answers a URL over its buffers with the 414 envelope', async () => {
    expectEnvelope(await ask(`/api/session?q=${'a'.repeat(9 * 1024)}`), 414, 'BAD_REQUEST');
  });

  it('answers a header over its buffers with the 431 envelope', async () => {
    const answer = await ask('/api/session', { headers: { 'x-large': 'a'.repeat(20 * 1024) } });
    expectEnvelope(answer, 431, 'BAD_REQUEST');
  });

  it('answers a body over 1 MiB with the 413 envelope', async () => {
    const answer = await ask('/api/guest-session', {
      method: 'POST',
      headers: { 'x-requested-with': 'wayfare', 'content-type': 'application/json' },
      body: Buffer.alloc(1.1 * 1024 * 1024, 'a'),
    });
    expectEnvelope(answer, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('names no version of itself', async () => {
    const answer = await ask('/api/session');
    expect(answer.status).toBe(200);
    expect(answer.headers.server).toBe('nginx');
  });
});

/**
 * How a stand-in instance answers: serving, refusing as a draining instance does, resetting each
 * connection a request arrives on (as a draining instance that closes a kept-alive connection just as the
 * front sends on it), or not listening.
 */
type InstanceMode = 'serving' | 'draining' | 'resetting' | 'stopped';

/** A stand-in BFF instance on a fixed loopback port: answers 200 with its name, or 503 as the BFF does. */
class StandInInstance {
  readonly port: number;
  readonly name: string;
  #server: Server | undefined;
  #mode: InstanceMode = 'stopped';

  constructor(name: string, port: number) {
    this.name = name;
    this.port = port;
  }

  async set(mode: InstanceMode): Promise<void> {
    this.#mode = mode;
    if (mode === 'stopped' && this.#server !== undefined) {
      const server = this.#server;
      this.#server = undefined;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    if (mode !== 'stopped' && this.#server === undefined) {
      const server = createServer((request, response) => {
        if (this.#mode === 'resetting') {
          request.socket.resetAndDestroy();
          return;
        }
        if (this.#mode === 'draining') {
          response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
          response.end(`{"error":{"code":"SERVICE_UNAVAILABLE","message":"${this.name} refuses"}}`);
          return;
        }
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(this.name);
      });
      this.#server = server;
      await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    }
  }
}

/**
 * The front's passive failure counting, through a real nginx with the fleet configuration in front of two
 * stand-in instances: an instance's deliberate 503 (draining in a rolling restart, Redis away) moves the
 * request on and never takes the instance out of rotation; a stopped instance costs a retry.
 */
describe.runIf(nginx !== undefined)('the fleet front in front of instances that refuse or stop', () => {
  const front = new TestFront();
  let first: StandInInstance;
  let second: StandInInstance;

  beforeAll(async () => {
    await front.prepare();
    first = new StandInInstance('first', await freePort());
    second = new StandInInstance('second', await freePort());
    await first.set('serving');
    await second.set('serving');
    await front.start([first.port, second.port]);
  });

  afterAll(async () => {
    await front.stop();
    await first?.set('stopped');
    await second?.set('stopped');
  });

  /** Who answered each of `count` GETs in a row (the status when it was not a 200). */
  async function answers(count: number): Promise<string[]> {
    const seen: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const answer = await askFront(front.port, front.ca, '/api/bookings');
      seen.push(answer.status === 200 ? answer.body : String(answer.status));
    }
    return seen;
  }

  it('sends every GET of a rolling restart to the instance that serves, the restarted one included', async () => {
    await first.set('draining');
    expect(await answers(8)).toEqual(Array(8).fill('second'));
    // The first instance is back; the second drains right after. With max_fails the first stayed out of
    // rotation for fail_timeout, the second's refusals took it out too, and the front answered 502.
    await first.set('serving');
    await second.set('draining');
    expect(await answers(8)).toEqual(Array(8).fill('first'));
    await second.set('stopped');
    expect(await answers(4)).toEqual(Array(4).fill('first'));
    await second.set('serving');
    await untilServedThroughFront({
      frontPort: front.port,
      ca: front.ca,
      instance: `127.0.0.1:${second.port}`,
      timeoutMs: 5_000,
    });
    expect(new Set(await answers(4))).toEqual(new Set(['first', 'second']));
  });

  it("passes on an instance's own 503 while every instance refuses, and serves again at once", async () => {
    await first.set('draining');
    await second.set('draining');
    const refused = await askFront(front.port, front.ca, '/api/bookings');
    expect(refused.status).toBe(503);
    // The instance's own envelope, not the front's "no live upstreams" 502.
    expect(refused.body).toMatch(/"message":"(first|second) refuses"/);
    await first.set('serving');
    await second.set('serving');
    expect(new Set(await answers(4))).toEqual(new Set(['first', 'second']));
  });

  it('sends a stay search or a booking an instance reset to the next instance, and never a cancel', async () => {
    await first.set('resetting');
    const post = (target: string, headers: Record<string, string> = {}) =>
      askFront(front.port, front.ca, target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: Buffer.from('{"query":"Lisbon"}'),
      });
    const searches: string[] = [];
    const bookings: string[] = [];
    const cancels: number[] = [];
    // Round robin over the two instances: each kind reaches the resetting one at least once in four.
    for (let index = 0; index < 4; index += 1) {
      const search = await post('/api/stays/search');
      searches.push(search.status === 200 ? search.body : String(search.status));
      const booking = await post('/api/bookings', { 'idempotency-key': `booking-attempt-${index}` });
      bookings.push(booking.status === 200 ? booking.body : String(booking.status));
      cancels.push((await post('/api/bookings/BK-1/cancel')).status);
    }
    // A search changes nothing: the front sent it again, to the instance that answers.
    expect(searches).toEqual(Array(4).fill('second'));
    // A booking is made once by its Idempotency-Key whichever instance sends it: sent again too.
    expect(bookings).toEqual(Array(4).fill('second'));
    // A cancel the first instance may have taken is not sent twice: the front says it got no answer.
    expect(cancels).toContain(502);
    expect(cancels.filter((status) => status !== 502).every((status) => status === 200)).toBe(true);
    await first.set('serving');
  });

  it('says which instance the front did not reach', async () => {
    await second.set('stopped');
    await expect(
      untilServedThroughFront({
        frontPort: front.port,
        ca: front.ca,
        instance: `127.0.0.1:${second.port}`,
        timeoutMs: 500,
      }),
    ).rejects.toThrow(/did not send a request to 127\.0\.0\.1:\d+ within 0\.5 s \(last answer: 200 from 127/);
    await second.set('serving');
  });
});
