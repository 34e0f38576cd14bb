import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import Fastify, {
  LogController,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { HOST_HEADER_CHECKED_BY_APP } from '#shared/host-header.ts';
import type { RouteEntry } from '#shared/route-path.ts';
import { observability } from '#shared/observability/fastify-observability.ts';
import { traceLogFields } from '#shared/observability/telemetry.ts';
import type { TravelApiConfig } from './travel-api-config.ts';
import bookingEndpoints from './bookings/booking-endpoints.ts';
import quotesPlugin from './bookings/quotes-plugin.ts';
import acceptDrain from './plugins/accept-drain.ts';
import adminGate from './admin/admin-gate.ts';
import consumerSignature, { MAX_BODY_BYTES } from './plugins/consumer-signature.ts';
import notificationEndpoints from './notifications/notification-endpoints.ts';
import { databasePlugin, faultsPlugin, storesPlugin } from './plugins/core.ts';
import { ensureLocalCertificates } from './local-certificates.ts';
import requireHost from './plugins/require-host.ts';
import serviceErrorHandler, {
  clientErrorHandler,
  frameworkErrorHandler,
} from './plugins/service-error-handler.ts';
import consumerQuotas from './plugins/consumer-quotas.ts';
import bearerAuth from './plugins/bearer-auth.ts';
import { zodValidatorCompiler } from './request-validation.ts';
import faultEndpoints from './admin/fault-endpoints.ts';
import notificationStreamAdminEndpoints from './notifications/notification-stream-admin-endpoints.ts';
import appUpdateEndpoints from './app-update/app-update-endpoints.ts';
import bookingListEndpoints from './bookings/booking-list-endpoints.ts';
import flightEndpoints from './flights/flight-endpoints.ts';
import guestSessionEndpoints from './guest-sessions/guest-session-endpoints.ts';
import profileEndpoints from './travelers/profile-endpoints.ts';
import travelerAdminEndpoints from './travelers/traveler-admin-endpoints.ts';
import tripEndpoints from './trips/trip-endpoints.ts';
import simulatorEndpoints from './simulator/simulator-endpoints.ts';
import stayEndpoints from './stays/stay-endpoints.ts';

export interface BuildTravelApiOptions {
  config: TravelApiConfig;
  logger?: FastifyServerOptions['logger'];
}

/** The travel API stand-in as a Fastify instance: run-travel-api.ts listens; tests build it and listen on port 0. */
export async function buildTravelApi({ config, logger }: BuildTravelApiOptions): Promise<FastifyInstance> {
  const options: FastifyHttpOptions<Server> = {
    logger: logger ?? {
      level: config.TRAVEL_API_LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["service-signature"]'],
      mixin: traceLogFields,
    },
    bodyLimit: MAX_BODY_BYTES,
    // One line per request instead, from the observability plugin.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: false,
    http: HOST_HEADER_CHECKED_BY_APP,
  };
  // HTTP/2 requests and responses (node:http2's compatibility API) have the shape of HTTP/1.1 ones, so
  // the routes are typed and written once, against node:http.
  const app = config.TRAVEL_API_TLS
    ? (Fastify({
        ...(options as unknown as FastifyServerOptions<Http2SecureServer>),
        http2: true,
        https: await httpsOptions(config),
      }) as unknown as FastifyInstance)
    : Fastify(options);
  // Every /v1 body is JSON; any other media type is a validation error, not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('travelConfig', config);
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', ({ method, url, onRequest, preParsing, preHandler }) => {
    for (const one of [method].flat())
      routeTable.push({ method: one, url, onRequest, preParsing, preHandler });
  });
  app.decorate('routeTable', routeTable);

  // First: every route and hook runs in the request's trace; GET /metrics, outside /v1, for Prometheus.
  await app.register(observability, { serviceName: 'wayfare-travel-api', metricsRoute: true });
  await app.register(serviceErrorHandler);
  await app.register(requireHost);
  await app.register(faultsPlugin);
  await app.register(databasePlugin);
  await app.register(storesPlugin);
  await app.register(consumerSignature);
  await app.register(bearerAuth);
  await app.register(consumerQuotas);
  await app.register(adminGate);
  await app.register(quotesPlugin);

  await app.register(faultEndpoints);
  await app.register(guestSessionEndpoints);
  await app.register(appUpdateEndpoints);
  await app.register(flightEndpoints);
  await app.register(profileEndpoints);
  await app.register(bookingListEndpoints);
  await app.register(tripEndpoints);

  await app.register(stayEndpoints);
  await app.register(notificationEndpoints);
  await app.register(notificationStreamAdminEndpoints);
  await app.register(simulatorEndpoints);
  await app.register(bookingEndpoints);
  await app.register(travelerAdminEndpoints);
  // Last, so that on close its wait for the listener to go quiet comes after every other preClose hook.
  await app.register(acceptDrain);

  await app.ready();
  return app;
}

/** The certificate made (or kept) in <data folder>/tls, HTTP/1.1 allowed beside HTTP/2. */
async function httpsOptions(config: TravelApiConfig) {
  const files = await ensureLocalCertificates(
    path.join(config.TRAVEL_API_DATA_DIR, 'tls'),
    'Wayfare travel API stand-in',
  );
  const [cert, key] = await Promise.all([readFile(files.certFile), readFile(files.keyFile)]);
  return { allowHTTP1: true, cert, key };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The parsed settings (named apart from the BFF's `config`, which shares the type namespace). */
    travelConfig: TravelApiConfig;
    /** Every route as registered (HEAD twins included): what the route-guard tests walk. */
    routeTable: readonly RouteEntry[];
  }
}
