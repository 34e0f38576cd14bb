import { watch, type FSWatcher } from 'node:fs';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import pino, { type Logger } from 'pino';
import type { IdentityConfig } from './identity-config.ts';
import { loadCookieKeys } from './cookie-keys.ts';
import { createIdentityProvider } from './create-identity-provider.ts';
import { createInteractionHandler } from './interaction-handler.ts';
import { renderMessagePage } from './identity-pages.ts';
import { SIGNING_KEYS_FILE, loadSigningKeys } from './signing-keys.ts';
import { prepareAdapterSchema, purgeExpired } from './sqlite-adapter.ts';
import { openStandInDatabase } from '../stand-in-database.ts';

/** A W3C traceparent (version 00): its trace id and the caller's span id. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

export interface IdentityServer {
  issuer: string;
  server: Server;
  /** Rebuilds the provider with the signing keys on disk (after `identity:rotate-keys`). */
  reloadSigningKeys(): Promise<void>;
  close(): Promise<void>;
}

export interface StartIdentityOptions {
  logger?: Logger;
  /** An already listening server to serve on (tests bind first, then wire the BFF, then start). */
  server?: Server;
  /** Reload the signing keys when the key file changes (the standalone server does). */
  watchSigningKeys?: boolean;
  /** Signing keys already being loaded (or generated) for the first provider. */
  signingKeys?: Promise<{ keys: JWK[] }>;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The caller's trace (its traceparent: the BFF's call to this server), for the request's log lines. */
function callerTrace(request: IncomingMessage): { trace_id?: string; span_id?: string } {
  const traceparent = request.headers.traceparent;
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null;
  return match ? { trace_id: match[1], span_id: match[2] } : {};
}

/** Path only: query strings of authorization and logout requests stay out of the log. */
function logRequests(logger: Logger, request: IncomingMessage, response: ServerResponse): void {
  const started = process.hrtime.bigint();
  response.once('finish', () => {
    const pathname = new URL(request.url ?? '/', 'http://identity.invalid').pathname;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info(
      {
        method: request.method,
        path: pathname,
        status: response.statusCode,
        ms: Math.round(ms),
        ...callerTrace(request),
      },
      'request',
    );
  });
}

/** Starts the identity platform stand-in: oidc-provider behind the sign-in pages, on node:http. */
export async function startIdentityServer(
  config: IdentityConfig,
  options: StartIdentityOptions = {},
): Promise<IdentityServer> {
  const logger = options.logger ?? pino({ level: config.LOG_LEVEL, name: 'identity' });
  const server = options.server ?? http.createServer();
  if (!server.listening) await listen(server, config.IDENTITY_HOST, config.IDENTITY_PORT);
  const { port } = server.address() as AddressInfo;
  const issuer = config.IDENTITY_ISSUER ?? `http://localhost:${port}`;

  // Refresh tokens, sessions and grants: readable by this server's user only.
  const db = openStandInDatabase(config.IDENTITY_DATA_DIR, 'identity.sqlite');
  db.exec('PRAGMA busy_timeout = 5000;');
  prepareAdapterSchema(db);
  purgeExpired(db);
  const cookieKeys = loadCookieKeys(config.IDENTITY_DATA_DIR);

  const build = async (jwks?: Promise<{ keys: JWK[] }>): Promise<Provider> =>
    createIdentityProvider({
      config,
      issuer,
      db,
      jwks: await (jwks ?? loadSigningKeys(config.IDENTITY_DATA_DIR)),
      cookieKeys,
      logger,
    });
  let provider = await build(options.signingKeys);
  let callback = provider.callback();
  const handleInteraction = createInteractionHandler({
    provider: () => provider,
    demoMode: config.IDENTITY_DEMO_MODE,
    logger,
  });

  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    logRequests(logger, request, response);
    handleInteraction(request, response)
      .then(async (handled) => {
        if (!handled) await callback(request, response);
      })
      .catch((error: unknown) => {
        logger.error({ err: (error as Error).message }, 'identity request failed');
        if (!response.headersSent) {
          const page = renderMessagePage('Something went wrong', 'Try again in a moment.');
          response.writeHead(500, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          response.end(page.html);
        }
      });
  };
  server.on('request', onRequest);

  const reloadSigningKeys = async (): Promise<void> => {
    provider = await build();
    callback = provider.callback();
    logger.info('signing keys reloaded');
  };

  let watcher: FSWatcher | undefined;
  if (options.watchSigningKeys) {
    let pending: NodeJS.Timeout | undefined;
    watcher = watch(config.IDENTITY_DATA_DIR, (_event, filename) => {
      if (filename !== SIGNING_KEYS_FILE) return;
      clearTimeout(pending);
      pending = setTimeout(() => {
        reloadSigningKeys().catch((error: unknown) =>
          logger.error({ err: (error as Error).message }, 'signing key reload failed'),
        );
      }, 200);
    });
  }
  const purge = setInterval(() => purgeExpired(db), 10 * 60 * 1000);
  purge.unref();

  logger.info({ issuer, demoMode: config.IDENTITY_DEMO_MODE }, 'identity platform listening');

  return {
    issuer,
    server,
    reloadSigningKeys,
    async close() {
      watcher?.close();
      clearInterval(purge);
      server.off('request', onRequest);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}
