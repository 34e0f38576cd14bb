import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { anonymousRouteRateLimit } from '../plugins/rate-limit.ts';

const READINESS_TIMEOUT_MS = 2_000;

export const HealthSchema = z.object({ status: z.literal('ok') });
export const ReadinessSchema = z.object({
  status: z.literal('ready'),
  checks: z.object({ identity: z.literal('ok'), travelApi: z.literal('ok') }),
});

type CheckResult = { ok: true } | { ok: false; reason: string };

/**
 * GET /healthz: the process answers. GET /readyz: the identity platform's discovery document is
 * reachable, and the travel API is reachable and accepts our signature (a signed GET /v1/app/update-check,
 * the one operation that needs no traveler). Not ready answers 503 with one detail per failing check; a
 * draining instance (shutting down, bff/plugins/drain.ts) answers 503 at once, whatever the checks.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/healthz',
    { schema: { hide: true, response: { 200: HealthSchema } } },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );

  routes.get(
    '/readyz',
    {
      // Each probe is a signed call on the BFF's own anonymous quota at the travel API.
      config: { rateLimit: anonymousRouteRateLimit(app.config) },
      schema: { hide: true, response: { 200: ReadinessSchema } },
    },
    async (request, reply) => {
      if (app.drain.draining) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          status: 503,
          message: 'Draining: this instance is shutting down',
          recoveryAction: 'RETRY_LATER',
          details: [{ field: 'instance', code: 'draining', message: 'shutting down' }],
        });
      }
      const [identity, travelApi] = await Promise.all([
        check(() => identityReachable(app.config.OIDC_ISSUER)),
        check(() =>
          app.travelApi.request({
            method: 'GET',
            path: '/v1/app/update-check',
            auth: { kind: 'none' },
            requestId: request.id,
            log: request.log,
            retry: 'none',
            signal: AbortSignal.timeout(READINESS_TIMEOUT_MS),
            schema: z.unknown(),
          }),
        ),
      ]);
      const failures = [
        ...(identity.ok ? [] : [{ field: 'identity', code: 'unreachable', message: identity.reason }]),
        ...(travelApi.ok ? [] : [{ field: 'travelApi', code: 'unavailable', message: travelApi.reason }]),
      ];
      if (failures.length > 0) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          status: 503,
          message: 'Not ready to serve travelers',
          recoveryAction: 'RETRY_LATER',
          details: failures,
        });
      }
      return reply
        .header('cache-control', 'no-store')
        .send({ status: 'ready' as const, checks: { identity: 'ok' as const, travelApi: 'ok' as const } });
    },
  );
}

async function check(probe: () => Promise<unknown>): Promise<CheckResult> {
  try {
    await probe();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: error instanceof AppError ? error.code : describe(error) };
  }
}

async function identityReachable(issuer: string): Promise<void> {
  const url = new URL('.well-known/openid-configuration', issuer.endsWith('/') ? issuer : `${issuer}/`);
  const response = await fetch(url, { signal: AbortSignal.timeout(READINESS_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown };
  if (document.issuer !== issuer) throw new Error('discovery names another issuer');
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  return error instanceof Error ? error.message : 'failed';
}
