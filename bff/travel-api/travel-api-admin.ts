import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { translateUpstreamError } from './translate-upstream-error.ts';

export interface TravelApiAdminCall<Schema extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/admin/${string}`;
  body?: unknown;
  schema: Schema;
  requestId: string;
  log: FastifyBaseLogger;
}

export interface TravelApiAdmin {
  call<Schema extends z.ZodType>(call: TravelApiAdminCall<Schema>): Promise<z.output<Schema>>;
}

/**
 * The travel API stand-in's admin API (faults, simulator, app releases), for the demo panel only.
 * Unsigned, with the admin bearer token; failures become AppErrors like every upstream failure.
 */
export function createTravelApiAdmin(options: {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}): TravelApiAdmin {
  return {
    async call({ method, path, body, schema, requestId, log }) {
      let response: Response;
      try {
        response = await fetch(new URL(path, options.baseUrl), {
          method,
          headers: {
            authorization: `Bearer ${options.token}`,
            'x-request-id': requestId,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        throw translateUpstreamError(
          timedOut
            ? { kind: 'timeout', timeoutMs: options.timeoutMs, cause: error }
            : { kind: 'network', cause: error },
        );
      }
      const text = await response.text();
      if (!response.ok) {
        log.warn({ admin: { method, path, status: response.status } }, 'travel API admin call failed');
        throw translateUpstreamError({
          kind: 'response',
          status: response.status,
          body: text,
          retryAfterHeader: response.headers.get('retry-after') ?? undefined,
        });
      }
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch (error) {
        throw translateUpstreamError({ kind: 'contract', issues: [], cause: error });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw translateUpstreamError({ kind: 'contract', issues: parsed.error.issues });
      return parsed.data;
    },
  };
}
