import type { IncomingMessage, Server } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import Fastify, {
  LogController,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { HOST_HEADER_CHECKED_BY_APP } from '#shared/host-header.ts';
import type { RouteEntry } from '#shared/route-path.ts';
import { readConfiguredFile, type Config } from './config.ts';
import { withLogRedaction } from './log-redaction.ts';
import { bffObservabilityPlugin } from './observability/bff-observability.ts';
import { metricsListenerPlugin } from './observability/metrics-listener.ts';
import { observability } from '#shared/observability/fastify-observability.ts';
import { keepAddressHops } from './plugins/client-address.ts';
import { compression } from './plugins/compression.ts';
import { drain } from './plugins/drain.ts';
import { clientErrorHandler, errorHandler, frameworkErrorHandler } from './plugins/error-handler.ts';
import { hostHeader } from './plugins/host-header.ts';
import { openApi } from './plugins/openapi.ts';
import { rateLimiting } from './plugins/rate-limit.ts';
import { redisPlugin } from './redis/redis-plugin.ts';
import { generateRequestId, requestId } from './plugins/request-id.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { travelApiPlugin } from './travel-api/travel-api-plugin.ts';
import { webApp } from './plugins/web-app.ts';
import apiRoutes from './routes/api/index.ts';
import healthRoutes from './routes/health-routes.ts';
import authPlugin from './sessions/auth-plugin.ts';
import csrfPlugin from './plugins/csrf.ts';
import sessionPlugin from './sessions/session-plugin.ts';
import authRoutes from './routes/auth/auth-routes.ts';
import ssePlugin from './streams/sse-plugin.ts';
import notificationsPlugin from './notifications/notifications-plugin.ts';
import pushPlugin from './push/push-plugin.ts';
import calendarFeedPlugin from './calendar-feed/calendar-feed-plugin.ts';
import calendarRoutes from './routes/calendar-routes.ts';
import travelApiPushWebhook from './routes/webhooks/travel-api-push-routes.ts';

export interface BuildAppOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
}

/** The BFF as a Fastify instance. server.ts listens; tests build it and listen on port 0. */
export async function buildApp({ config, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = createServer(config, {
    logger: withLogRedaction(logger, config.LOG_LEVEL),
    genReqId: generateRequestId,
    // One line per request instead, from the observability plugin.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY ?? false,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    http: HOST_HEADER_CHECKED_BY_APP,
  });
  app.decorate('config', config);
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    // Read when asked, not now: an enclosing plugin's onRoute hook (the session gate) adds its guard after this one.
    for (const method of [route.method].flat())
      routeTable.push({
        method,
        url: route.url,
        get onRequest() {
          return route.onRequest;
        },
        get preParsing() {
          return route.preParsing;
        },
        get preHandler() {
          return route.preHandler;
        },
      });
  });
  app.decorate('routeTable', routeTable);

  // Capabilities and routes are registered here, one line each, in dependency order.
  await app.register(observability, { serviceName: 'wayfare-bff' }); // first: every route and hook runs in its trace
  await app.register(metricsListenerPlugin);
  await app.register(bffObservabilityPlugin);
  await app.register(compression); // before any route: it adds its hook to each route as it is registered
  await app.register(openApi); // before the routes: those registered after it validate with zod and are documented
  await app.register(errorHandler);
  await app.register(requestId);
  await app.register(securityHeaders);
  await app.register(hostHeader); // before sessions, quotas and routes: a request without Host goes no further
  await app.register(drain); // before sessions, quotas and routes: a draining instance refuses early
  await app.register(redisPlugin); // null unless REDIS_URL: then shared state lives in Redis
  await app.register(rateLimiting);
  await app.register(travelApiPlugin);
  await app.register(sessionPlugin);
  await app.register(authPlugin);
  await app.register(csrfPlugin);
  await app.register(ssePlugin);
  await app.register(notificationsPlugin);
  await app.register(pushPlugin);
  await app.register(calendarFeedPlugin);
  await app.register(authRoutes);
  await app.register(apiRoutes); // every /api route, open or behind its gate (bff/routes/api/index.ts)
  await app.register(travelApiPushWebhook);
  await app.register(calendarRoutes); // the calendar feed: no session, the token in the path
  await app.register(healthRoutes);
  await app.register(webApp); // last: the SPA fallback answers the GETs no route above claims

  await app.ready();
  return app;
}

/**
 * The server, with a forwarded chain (X-Forwarded-For) cut at its right-most hop that is not an address
 * before Fastify reads it: the client address is then the right-most hop that is not one of the fronts
 * in TRUST_PROXY, and never a value that is not an address.
 */
function createServer(config: Config, options: FastifyHttpOptions<Server>): FastifyInstance {
  const app = createFastify(config, options);
  if (config.TRUST_PROXY !== undefined) {
    app.server.prependListener('request', (request: IncomingMessage) => keepAddressHops(request.headers));
  }
  return app;
}

/**
 * Plain HTTP/1.1, or with a certificate HTTPS that speaks HTTP/2 to browsers offering it (ALPN) and
 * HTTP/1.1 to the others. Node's compatibility API gives an HTTP/2 request and response the shape of
 * HTTP/1.1 ones, so every route, hook and plugin is typed and written once, against node:http; the one
 * place that writes below that API (bff/streams/sse-connection.ts) tells the two apart.
 */
function createFastify(config: Config, options: FastifyHttpOptions<Server>): FastifyInstance {
  if (config.TLS_CERT_FILE === undefined || config.TLS_KEY_FILE === undefined) return Fastify(options);
  const https = {
    allowHTTP1: true,
    cert: readConfiguredFile('TLS_CERT_FILE', config.TLS_CERT_FILE),
    key: readConfiguredFile('TLS_KEY_FILE', config.TLS_KEY_FILE),
  };
  const http2Options = options as unknown as FastifyServerOptions<Http2SecureServer>;
  return Fastify({ ...http2Options, http2: true, https }) as unknown as FastifyInstance;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Every route as registered (HEAD twins included): what the route-guard tests walk. */
    routeTable: readonly RouteEntry[];
  }
}
