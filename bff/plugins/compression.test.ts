import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/precompress-plugin.ts';
import { startTestBff, type TestBff } from '../test-support/start-test-bff.ts';

const FILES: Record<string, string> = {
  'index.html': `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${'<!-- app -->'.repeat(40)}</body></html>`,
  'assets/index-Ab12Cd34.js': 'console.log("the app");\n'.repeat(200),
  'assets/index-Ef56Gh78.css': 'body { margin: 0; }\n'.repeat(200),
  'sw.js': 'self.addEventListener("push", () => {});\n'.repeat(50),
  'manifest.webmanifest': JSON.stringify({ name: 'Wayfare', icons: [] }),
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle r="16"/></svg>',
};

/** An answer read whole over real HTTP, its body decoded as its Content-Encoding says. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let dir: string;
let bff: TestBff;

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(new URL(url, bff.url), { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const body =
          encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: body.toString('utf8') });
      });
    })
      .on('error', reject)
      .end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-compression-'));
  await mkdir(path.join(dir, 'assets'));
  for (const [file, content] of Object.entries(FILES)) await writeFile(path.join(dir, file), content);
  await precompressDirectory(dir);
  bff = await startTestBff({
    NODE_ENV: 'development',
    WEB_DIST_DIR: dir,
    TRAVEL_API_URL: 'http://127.0.0.1:9',
    OIDC_ISSUER: 'http://127.0.0.1:9',
  });
});

afterAll(async () => {
  await bff?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the built SPA’s files', () => {
  const pages = [...Object.keys(FILES).map((file) => `/${file}`), '/', '/trips/4b7e?tab=status'];

  it.each(pages)('%s comes as Brotli, gzip or as it is, as the browser accepts, with Vary', async (url) => {
    const file = url === '/' || url.startsWith('/trips') ? 'index.html' : url.slice(1);
    for (const [accept, encoding] of [
      ['br, gzip, deflate, zstd', 'br'],
      ['gzip;q=1.0, br;q=0', 'gzip'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      ['', undefined],
    ] as const) {
      const answer = await get(url, accept === '' ? {} : { 'accept-encoding': accept });
      expect(answer.status, `${url} ${accept}`).toBe(200);
      expect(answer.headers['content-encoding'], `${url} ${accept}`).toBe(encoding);
      expect(answer.headers.vary, `${url} ${accept}`).toMatch(/accept-encoding/i);
      expect(answer.body, `${url} ${accept}`).toBe(FILES[file]);
    }
  });

  it('keeps each type and cache rule whatever the encoding', async () => {
    const script = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'br' });
    expect(script.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await get('/', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const style = await get('/assets/index-Ef56Gh78.css', { 'accept-encoding': 'br' });
    expect(style.headers['content-type']).toMatch(/^text\/css/);
  });

  it('never offers the compressed copies as addresses of their own', async () => {
    for (const url of ['/assets/index-Ab12Cd34.js.br', '/index.html.gz']) {
      expect((await get(url)).status, url).toBe(404);
    }
  });
});

describe('JSON answers', () => {
  it('are compressed above a kilobyte, with Vary, and sent as they are below it', async () => {
    const large = await get('/api/docs/json', { 'accept-encoding': 'br, gzip' });
    expect(large.status).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(large.body)).toMatchObject({ openapi: '3.1.0' });
    const gzipped = await get('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gzipped.body)).toEqual(JSON.parse(large.body));
    const plain = await get('/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();

    const small = await get('/healthz', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('an event stream', () => {
  it('is never compressed or held back: its first event arrives while it is still open', async () => {
    const { headers } = await bff.signIn('5f1c2a7e-0b1d-4c5e-9a01-000000000001');
    const first = await new Promise<{ headers: Record<string, unknown>; chunk: string }>(
      (resolve, reject) => {
        const stream = request(
          new URL('/api/notifications/stream', bff.url),
          { headers: { ...headers, 'accept-encoding': 'br, gzip, deflate' } },
          (response) => {
            response.once('data', (chunk: Buffer) => {
              resolve({ headers: response.headers, chunk: chunk.toString('utf8') });
              stream.destroy();
            });
            response.on('error', () => undefined);
          },
        );
        stream.on('error', (error) => {
          if (!stream.destroyed) reject(error);
        });
        stream.end();
      },
    );
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.chunk).toContain('retry: 3000');
  });
});
