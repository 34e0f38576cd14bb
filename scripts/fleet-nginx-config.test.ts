import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { startTestBff, type TestBff } from '../bff/test-support/start-test-bff.ts';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
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
    expect(config).toContain('server 127.0.0.1:41001 max_fails=3 fail_timeout=10s;');
    expect(config).toContain('server 127.0.0.1:41002 max_fails=3 fail_timeout=10s;');
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

/** An answer of the front, read whole. */
interface FrontAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The fleet's front as `npm run start:fleet` runs it: a real nginx with the fleet configuration, on a free
 * loopback port, in front of one BFF instance that believes X-Forwarded-For from the front's address only.
 */
describe.runIf(nginx !== undefined)('the fleet front, through a real nginx', () => {
  let dir: string;
  let bff: TestBff;
  const front = new ServiceGroup(root, () => undefined);
  let frontPort: number;
  let ca: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-front-'));
    // nginx's workers (an unprivileged user when the test runs as root) write their temporary files here.
    await chmod(dir, 0o755);
    const tls = await ensureLocalCertificates(path.join(dir, 'tls'), 'Wayfare test');
    ca = await readFile(tls.caFile, 'utf8');
    frontPort = await freePort();
    bff = await startTestBff({
      PUBLIC_ORIGIN: `https://localhost:${frontPort}`,
      TRUST_PROXY: '127.0.0.1',
      // Nothing listens there: a guest session the limit lets through fails at once, after counting.
      TRAVEL_API_URL: `http://127.0.0.1:${await freePort()}`,
      UPSTREAM_RETRY_BUDGET_MS: '0',
    });
    const config = path.join(dir, 'nginx.conf');
    await writeFile(
      config,
      fleetNginxConfig({
        ...settings,
        ...tls,
        frontPort,
        bffPorts: [Number(new URL(bff.url).port)],
        runDir: dir,
      }),
    );
    await front.start({
      name: 'nginx',
      command: nginx ?? 'nginx',
      args: ['-p', dir, '-c', config, '-e', 'stderr'],
      port: frontPort,
      env: {},
    });
  });

  afterAll(async () => {
    await front.stopAll();
    await bff?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  function ask(
    target: string,
    options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
  ): Promise<FrontAnswer> {
    return new Promise((resolve, reject) => {
      const request = httpsRequest(
        {
          host: '127.0.0.1',
          port: frontPort,
          servername: 'localhost',
          ca,
          path: target,
          method: options.method ?? 'GET',
          headers: { host: `localhost:${frontPort}`, ...options.headers },
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });
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
