import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { request as undiciRequest } from 'undici';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadIdentityConfig } from '../../upstream/identity/identity-config.ts';
import { startIdentityServer, type IdentityServer } from '../../upstream/identity/identity-server.ts';
import { buildTravelApi } from '../../upstream/travel-api/build-travel-api.ts';
import { loadTravelApiConfig, type TravelApiConfig } from '../../upstream/travel-api/travel-api-config.ts';
import { APP_ORIGIN, formAction, TestBrowser } from './sign-in-stack.ts';
import { closeWithin, startBff, type StartedBff } from './start-bff.ts';

export const ADMIN_TOKEN = 'test-admin-token-0000000000000001';
/** Headers the tap adds to every travel API answer: the BFF must never pass them to the browser. */
export const UPSTREAM_ONLY_HEADERS = {
  'set-cookie': 'upstream-affinity=node-7; Path=/',
  'x-upstream-node': 'node-7',
};

export interface TappedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: Date;
  /** True once the BFF hung up before the whole answer was written to it. */
  abandoned: boolean;
}

export interface ScriptedAnswer {
  status: number;
  body: unknown;
}

/**
 * A recording hop between the BFF and the travel API stand-in: it keeps every request as received
 * (headers and body bytes), forwards it, streams the answer back with UPSTREAM_ONLY_HEADERS added, and
 * can answer the next request to a path itself.
 */
export interface UpstreamTap {
  url: string;
  seen: TappedRequest[];
  answerNext(pathname: string, answer: ScriptedAnswer): void;
  /** Forwards the next request to a path at once but holds its answer back for `ms` (a slow answer). */
  holdNext(pathname: string, ms: number): void;
  close(): Promise<void>;
}

export async function startUpstreamTap(target: string): Promise<UpstreamTap> {
  const seen: TappedRequest[] = [];
  const scripted = new Map<string, ScriptedAnswer[]>();
  const holds = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = request.url ?? '/';
      const tapped: TappedRequest = {
        method: request.method ?? 'GET',
        url,
        headers: request.headers,
        body,
        at: new Date(),
        abandoned: false,
      };
      seen.push(tapped);
      response.once('close', () => (tapped.abandoned = !response.writableFinished));
      const answer = scripted.get(url.split('?')[0] ?? url)?.shift();
      if (answer) {
        response.writeHead(answer.status, { 'content-type': 'application/json', ...UPSTREAM_ONLY_HEADERS });
        response.end(JSON.stringify(answer.body));
        return;
      }
      const holdMs = holds.get(url.split('?')[0] ?? url)?.shift() ?? 0;
      const headers = { ...request.headers };
      delete headers.host;
      delete headers.connection;
      // Passes the BFF's trace on as a traced proxy would: its own call (a span) in the BFF call's trace.
      delete headers.traceparent;
      context
        .with(propagation.extract(ROOT_CONTEXT, request.headers), () =>
          undiciRequest(new URL(url, target), {
            method: request.method as 'GET',
            headers,
            body: body.length > 0 ? body : undefined,
          }),
        )
        .then(async (upstream) => {
          if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
          const forwarded: http.OutgoingHttpHeaders = { ...upstream.headers, ...UPSTREAM_ONLY_HEADERS };
          delete forwarded['transfer-encoding'];
          delete forwarded.connection;
          delete forwarded['keep-alive'];
          response.writeHead(upstream.statusCode, forwarded);
          response.flushHeaders();
          await pipeline(upstream.body, response);
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answerNext(pathname, answer) {
      scripted.set(pathname, [...(scripted.get(pathname) ?? []), answer]);
    },
    holdNext(pathname, ms) {
      holds.set(pathname, [...(holds.get(pathname) ?? []), ms]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface GatewayStack {
  app: FastifyInstance;
  travelApi: FastifyInstance;
  travelApiConfig: TravelApiConfig;
  identity: IdentityServer;
  bffUrl: string;
  travelApiUrl: string;
  /** Between the BFF and the travel API: every upstream request the BFF made. */
  tap: UpstreamTap;
  /** Every log line the BFF wrote, as written. */
  bffLogs: string[];
  browser(): TestBrowser;
  /** Signs in through the identity stand-in's real pages; the browser then holds the session cookie. */
  signIn(email?: string, password?: string): Promise<TestBrowser>;
  /** A call to the travel API stand-in's admin API. */
  admin(method: string, pathname: string, body?: unknown): Promise<Response>;
  /** Builds another BFF against the same stand-ins (a restart with other settings). */
  startBff(env?: Record<string, string>): Promise<{ app: FastifyInstance; url: string; logs: string[] }>;
  close(): Promise<void>;
}

export interface GatewayStackOptions {
  bffEnv?: Record<string, string>;
  travelApiEnv?: Record<string, string>;
}

/**
 * The identity stand-in, the travel API stand-in and the BFF on loopback (port 0, one fresh data
 * folder): the identity server binds first so the others learn its issuer, the travel API starts next,
 * then the BFF, and the identity platform starts serving last with the BFF's back-channel address.
 */
export async function startGatewayStack(options: GatewayStackOptions = {}): Promise<GatewayStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-gateway-'));
  const silent = pino({ level: 'silent' });

  const identityHttp = http.createServer();
  await new Promise<void>((resolve) => identityHttp.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(identityHttp.address() as AddressInfo).port}`;

  const travelApiConfig = loadTravelApiConfig({
    TRAVEL_API_DATA_DIR: path.join(dataDir, 'travel-api'),
    IDENTITY_ISSUER: issuer,
    TRAVEL_API_ADMIN_TOKEN: ADMIN_TOKEN,
    TRAVEL_API_STREAM_PACE_MS: '0',
    TRAVEL_API_LOG_LEVEL: 'silent',
    ...options.travelApiEnv,
  });
  const travelApi = await buildTravelApi({ config: travelApiConfig, logger: false });
  await travelApi.listen({ host: '127.0.0.1', port: 0 });
  const travelApiUrl = `http://127.0.0.1:${(travelApi.server.address() as AddressInfo).port}`;
  const tap = await startUpstreamTap(travelApiUrl);

  const bffs: StartedBff[] = [];
  const startGatewayBff = async (env: Record<string, string> = {}) => {
    const bff = await startBff(
      {
        PUBLIC_ORIGIN: APP_ORIGIN,
        DATA_DIR: path.join(dataDir, `bff-${bffs.length}`),
        OIDC_ISSUER: issuer,
        TRAVEL_API_URL: tap.url,
        TRAVEL_API_ADMIN_TOKEN: ADMIN_TOKEN,
        ...options.bffEnv,
        ...env,
      },
      { logs: [] },
    );
    bffs.push(bff);
    return bff;
  };
  const bff = await startGatewayBff();

  const identity = await startIdentityServer(
    loadIdentityConfig({
      IDENTITY_ISSUER: issuer,
      IDENTITY_DATA_DIR: path.join(dataDir, 'identity'),
      IDENTITY_BFF_ORIGIN: APP_ORIGIN,
      IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI: `${bff.url}/auth/backchannel-logout`,
      LOG_LEVEL: 'silent',
    }),
    { server: identityHttp, logger: silent },
  );

  const aliases = new Map([[APP_ORIGIN, bff.url]]);
  const browser = (): TestBrowser => new TestBrowser(aliases);

  return {
    app: bff.app,
    travelApi,
    travelApiConfig,
    identity,
    bffUrl: bff.url,
    travelApiUrl,
    tap,
    bffLogs: bff.logs,
    browser,
    async signIn(email = 'alex@wayfare.example', password = 'alex-demo') {
      const client = browser();
      const login = await client.navigate('/auth/login?returnTo=%2F');
      const html = await login.final.text();
      const submitted = await client.navigate(new URL(formAction(html), login.url).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
      await submitted.final.arrayBuffer();
      return client;
    },
    admin(method, pathname, body) {
      return fetch(new URL(pathname, travelApiUrl), {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    startBff: startGatewayBff,
    async close() {
      await Promise.all(bffs.map((started) => started.close()));
      await tap.close();
      await closeWithin(travelApi);
      await identity.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
