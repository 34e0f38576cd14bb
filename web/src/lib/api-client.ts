import type { z } from 'zod';
import type { QueryKey } from '@tanstack/react-query';
import { ErrorEnvelopeSchema } from '#shared/api/error-envelope.ts';
import { BffError, networkError, unreadableResponse } from './bff-error.ts';
import { startTrace } from './trace-context.ts';
import { recordUpdatedAt } from './updated-at.ts';

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
  accept?: string;
  headers?: Record<string, string>;
  /** Remember when the server produced this answer, for the query shown under this key (updated-at.ts). */
  updatedAtOf?: QueryKey;
}

/** The anti-forgery header the BFF requires on every state-changing or token-attaching /api call. */
export const ANTI_FORGERY_HEADERS = { 'X-Requested-With': 'wayfare' } as const;

/** Sends one request to the BFF (same origin, session cookie) and returns the raw Response when ok. */
export async function apiRequest(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const { method = 'GET', body, signal, accept = 'application/json' } = options;
  // Each call starts a trace of its own, which the BFF and the travel API continue.
  const trace = startTrace();
  const headers: Record<string, string> = {
    ...options.headers,
    ...ANTI_FORGERY_HEADERS,
    Accept: accept,
    traceparent: trace.traceparent,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw networkError(cause, trace.traceId);
  }
  if (!response.ok) throw await errorFromResponse(response, trace.traceId);
  return response;
}

/** Sends a request and parses the JSON answer with the contract schema; a drifted body is an error. */
export async function apiJson<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: ApiRequestOptions = {},
): Promise<z.infer<Schema>> {
  const response = await apiRequest(path, options);
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  let json: unknown;
  try {
    json = response.status === 204 ? undefined : await response.json();
  } catch {
    throw unreadableResponse(response.status, requestId);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw unreadableResponse(response.status, requestId);
  if (options.updatedAtOf) recordUpdatedAt(options.updatedAtOf, response);
  return parsed.data;
}

/** Sends a request whose answer carries no body the app needs (204, or an acknowledgement). */
export async function apiSend(path: string, options: ApiRequestOptions = {}): Promise<void> {
  const response = await apiRequest(path, options);
  await response.body?.cancel();
}

export async function errorFromResponse(response: Response, traceId?: string): Promise<BffError> {
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  try {
    const parsed = ErrorEnvelopeSchema.safeParse(await response.json());
    if (parsed.success)
      return new BffError({ status: response.status, body: parsed.data.error, requestId, traceId });
  } catch {
    // Not JSON: a proxy page or an empty body; reported as an unexpected response below.
  }
  return unreadableResponse(response.status, requestId, traceId);
}
