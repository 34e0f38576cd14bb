import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';

/**
 * The travel API as the BFF's routes and hubs see it: signed JSON calls and signed event streams. The one
 * implementation is travel-api-client.ts.
 */

export type UpstreamAuth =
  | { kind: 'bearer'; token: string; refresh?: () => Promise<string> }
  | { kind: 'guest'; token: string }
  | { kind: 'none' };

/** 'idempotent' retries transport failures and 503 RETRY_LATER inside the budget; RETRY_NOW always. */
export type RetryPolicy = 'idempotent' | 'none';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryScalar = string | number | boolean | null | undefined;
export type UpstreamQuery = Record<string, QueryScalar | readonly QueryScalar[]>;

export interface TravelApiRequestBase {
  method: HttpMethod;
  /** A /v1 path without query string; the query goes in `query` (it is not signed, per the spec). */
  path: string;
  query?: UpstreamQuery;
  body?: unknown;
  /** Further request headers, such as Idempotency-Key (the signature never covers headers). */
  headers?: Readonly<Record<string, string>>;
  auth: UpstreamAuth;
  requestId: string;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** The logger of the request being served, so upstream lines carry its request id. */
  log?: FastifyBaseLogger;
}

export interface TravelApiJsonRequest<Schema extends z.ZodType> extends TravelApiRequestBase {
  /** The contract of the 2xx body; a body outside it becomes BAD_GATEWAY. */
  schema: Schema;
  stream?: false;
}

export interface TravelApiStreamRequest extends TravelApiRequestBase {
  stream: true;
  /** Resumes an SSE stream where the previous connection stopped. */
  lastEventId?: string;
}

export interface TravelApi {
  /** A signed JSON call: resolves with the body parsed by `schema`, rejects with an AppError. */
  request<Schema extends z.ZodType>(options: TravelApiJsonRequest<Schema>): Promise<z.output<Schema>>;
  /**
   * A signed SSE call: resolves with the body of the open 2xx text/event-stream response as a Node
   * stream (read it with bff/streams/read-sse-body.ts; destroy it to abort), rejects with an AppError.
   */
  request(options: TravelApiStreamRequest): Promise<Readable>;
  close(): Promise<void>;
}
