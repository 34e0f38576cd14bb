import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedSpellings } from '#shared/path-spellings.ts';
import { fuzzRequests, readAnswer } from '../travel-api/test-support/request-fuzz.ts';
import { loadIdentityConfig } from './identity-config.ts';
import { startIdentityServer, type IdentityServer } from './identity-server.ts';

/**
 * Random requests to every endpoint the identity platform publishes in its discovery document, and to its
 * sign-in pages: never a 5xx and never a stack trace. It stands in for a standard OpenID Connect platform,
 * so its refusals are OAuth 2.0 errors (`{ error, error_description }`, RFC 6749 5.2) or its own pages,
 * not the travel API's envelope.
 */

let dataDir: string;
let identity: IdentityServer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-identity-fuzz-'));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  identity = await startIdentityServer(
    loadIdentityConfig({
      IDENTITY_ISSUER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      IDENTITY_DATA_DIR: dataDir,
    }),
    { server, logger: pino({ level: 'silent' }) },
  );
}, 30_000);
afterAll(async () => {
  await identity.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** An OAuth error, one of the platform's pages, or a bare status line for a method a route does not take. */
function isOAuthErrorOrPage(contentType: string, text: string): boolean {
  if (contentType.startsWith('text/html')) return true;
  if (contentType.startsWith('text/plain')) return text.length < 100;
  try {
    return typeof (JSON.parse(text) as { error?: unknown }).error === 'string';
  } catch {
    return text === '';
  }
}

async function publishedEndpoints(): Promise<string[]> {
  const discovery = (await (
    await fetch(`${identity.issuer}/.well-known/openid-configuration`)
  ).json()) as Record<string, unknown>;
  return Object.entries(discovery)
    .filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri')
    .map(([, value]) => new URL(String(value)).pathname);
}

describe('identity platform routes', () => {
  it('answers every percent-encoded spelling of a published endpoint as the plain path or with a 404', async () => {
    for (const pathname of await publishedEndpoints()) {
      for (const method of ['GET', 'POST']) {
        const plain = (await fetch(`${identity.issuer}${pathname}`, { method, redirect: 'manual' })).status;
        for (const spelled of encodedSpellings(pathname)) {
          const got = (await fetch(`${identity.issuer}${spelled}`, { method, redirect: 'manual' })).status;
          expect([plain, 404], `${method} ${spelled}`).toContain(got);
        }
      }
    }
  });
});

describe('identity platform fuzz', () => {
  it('answers every published endpoint and the sign-in pages with no 5xx and no stack trace', async () => {
    const endpoints = await publishedEndpoints();
    expect(endpoints.length).toBeGreaterThan(4);
    const routes = [
      ...endpoints.flatMap((pathname) => [
        { method: 'GET', url: pathname },
        { method: 'POST', url: pathname },
      ]),
      { method: 'GET', url: '/interaction/:uid' },
      { method: 'POST', url: '/interaction/:uid/login' },
      { method: 'POST', url: '/interaction/:uid/abort' },
    ];
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(fuzzRequests(route.method, route.url), async (request) => {
          const answer = await readAnswer(
            await fetch(`${identity.issuer}${request.path}`, {
              method: request.method,
              headers: request.headers,
              body: request.body,
              redirect: 'manual',
              signal: AbortSignal.timeout(10_000),
            }),
          );
          const where = `${request.method} ${request.path}`;
          expect(answer.status, where).toBeLessThan(500);
          if (answer.status >= 400)
            expect(isOAuthErrorOrPage(answer.contentType, answer.text), where).toBe(true);
          expect(answer.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
        }),
        { numRuns: 10 },
      );
    }
  }, 180_000);
});
