import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadIdentityConfig } from '../../upstream/identity/identity-config.ts';
import { startIdentityServer, type IdentityServer } from '../../upstream/identity/identity-server.ts';
import { sinkInto, startBff } from './start-bff.ts';

/** The origin the BFF believes the browser uses; the test browser maps it to the real loopback port. */
export const APP_ORIGIN = 'http://localhost:3000';

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A cookie-keeping HTTP client that behaves like a browser for redirects and cookies (per host, with
 * Path), without JavaScript. Requests to APP_ORIGIN go to the BFF's real address.
 */
export class TestBrowser {
  readonly #jars = new Map<string, Map<string, StoredCookie>>();
  readonly #aliases: Map<string, string>;
  readonly #transcript: string[];

  constructor(aliases: Map<string, string>, transcript: string[] = []) {
    this.#aliases = aliases;
    this.#transcript = transcript;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.#jars.get(new URL(origin).host)?.get(name)?.value;
  }

  setCookie(origin: string, name: string, value: string): void {
    const host = new URL(origin).host;
    const jar = this.#jars.get(host) ?? new Map<string, StoredCookie>();
    jar.set(name, { value, path: '/' });
    this.#jars.set(host, jar);
  }

  /** One request, no redirect following. Relative URLs are resolved against APP_ORIGIN. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, APP_ORIGIN);
    const headers = new Headers(init.headers);
    const cookieHeader = this.#cookieHeader(target);
    if (cookieHeader) headers.set('cookie', cookieHeader);
    const actual = new URL(
      target.pathname + target.search,
      this.#aliases.get(target.origin) ?? target.origin,
    );
    const response = await fetch(actual, { ...init, headers, redirect: 'manual' });
    this.#store(target, response.headers.getSetCookie());
    const body = await response.text();
    const headerLines = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    this.#transcript.push(`${response.status} ${target.href}\n${headerLines}\n\n${body}`);
    const nullBody = response.status === 204 || response.status === 304;
    return new Response(nullBody ? null : body, { status: response.status, headers: response.headers });
  }

  /** Follows redirects like a browser (303 turns a POST into a GET); returns every response in order. */
  async navigate(
    url: string,
    init: RequestInit = {},
  ): Promise<{ final: Response; url: string; chain: Response[] }> {
    const chain: Response[] = [];
    let current = new URL(url, APP_ORIGIN).href;
    let request = init;
    for (let hop = 0; hop < 15; hop += 1) {
      const response = await this.fetch(current, request);
      chain.push(response);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location)
        return { final: response, url: current, chain };
      await response.arrayBuffer();
      current = new URL(location, current).href;
      request = {};
    }
    throw new Error('Too many redirects');
  }

  #cookieHeader(target: URL): string {
    const jar = this.#jars.get(target.host);
    if (!jar) return '';
    return [...jar.entries()]
      .filter(([, cookie]) => target.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  #store(target: URL, setCookies: string[]): void {
    const jar = this.#jars.get(target.host) ?? new Map<string, StoredCookie>();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const attribute = (key: string): string | undefined =>
        attributes
          .find((entry) => entry.toLowerCase().startsWith(`${key.toLowerCase()}=`))
          ?.split('=')
          .slice(1)
          .join('=');
      const maxAge = attribute('Max-Age');
      const expires = attribute('Expires');
      const expired =
        (maxAge !== undefined && Number(maxAge) <= 0) ||
        (expires !== undefined && Date.parse(expires) <= Date.now());
      if (expired) jar.delete(name);
      else jar.set(name, { value, path: attribute('Path') ?? '/' });
    }
    this.#jars.set(target.host, jar);
  }
}

export interface SignInStack {
  app: FastifyInstance;
  identity: IdentityServer;
  bffUrl: string;
  /** The fresh temporary folder holding both servers' data (removed by close). */
  dataDir: string;
  /** Every log line of both servers, as written. */
  logs: string[];
  /** Every response any TestBrowser of this stack received: status, URL, headers and body. */
  transcript: string[];
  browser(): TestBrowser;
  /** Signs in through the real pages; returns the browser holding the session cookie and the final response. */
  signIn(options?: { email?: string; password?: string; returnTo?: string; browser?: TestBrowser }): Promise<{
    browser: TestBrowser;
    final: Response;
    url: string;
    chain: Response[];
  }>;
  close(): Promise<void>;
}

export interface SignInStackOptions {
  bffEnv?: Record<string, string>;
  identityEnv?: Record<string, string>;
}

/** The sign-in form's action on the identity page. */
export function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+\/login)"/.exec(html);
  if (!match?.[1]) throw new Error('No sign-in form on the page');
  return match[1];
}

/**
 * The identity stand-in and the BFF on loopback (port 0, fresh data folders): the identity server binds
 * first, the BFF learns its issuer, then the identity platform learns the BFF's back-channel address.
 */
export async function startSignInStack(options: SignInStackOptions = {}): Promise<SignInStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-sign-in-'));
  const logs: string[] = [];
  const sink = sinkInto(logs);

  const identityHttp = http.createServer();
  await new Promise<void>((resolve) => identityHttp.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(identityHttp.address() as AddressInfo).port}`;

  const bff = await startBff(
    {
      PUBLIC_ORIGIN: APP_ORIGIN,
      DATA_DIR: path.join(dataDir, 'bff'),
      OIDC_ISSUER: issuer,
      TRAVEL_API_URL: 'http://127.0.0.1:9',
      ...options.bffEnv,
    },
    { logs },
  );
  const { app, url: bffUrl } = bff;

  const identity = await startIdentityServer(
    loadIdentityConfig({
      IDENTITY_ISSUER: issuer,
      IDENTITY_DATA_DIR: path.join(dataDir, 'identity'),
      IDENTITY_BFF_ORIGIN: APP_ORIGIN,
      IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI: `${bffUrl}/auth/backchannel-logout`,
      LOG_LEVEL: 'debug',
      ...options.identityEnv,
    }),
    { server: identityHttp, logger: pino({ level: 'debug' }, sink) },
  );

  const aliases = new Map([[APP_ORIGIN, bffUrl]]);
  const transcript: string[] = [];
  const browser = (): TestBrowser => new TestBrowser(aliases, transcript);

  return {
    app,
    identity,
    bffUrl,
    dataDir,
    logs,
    transcript,
    browser,
    async signIn({
      email = 'alex@wayfare.example',
      password = 'alex-demo',
      returnTo = '/trips',
      browser: existing,
    } = {}) {
      const client = existing ?? browser();
      const login = await client.navigate(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
      // Already signed in at the identity platform: single sign-on returns straight to the app.
      if (login.url.startsWith(APP_ORIGIN)) return { browser: client, ...login };
      const html = await login.final.text();
      const submitted = await client.navigate(new URL(formAction(html), login.url).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
      return { browser: client, ...submitted };
    },
    async close() {
      await bff.close();
      await identity.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
