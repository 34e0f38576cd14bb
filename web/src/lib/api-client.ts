import type { QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { BffError, networkError, unreadableResponse } from './bff-error.ts';
import { readErrorEnvelope } from './read-error-body.ts';
import { startTrace } from './trace-context.ts';
import { recordUpdatedAt } from './updated-at.ts';

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
  accept?: string;
  headers?: Record<string, string>;
  /**
   * The fetch priority (RequestInit.priority): `low` for a request the page does not wait for, such as
   * the notification stream, which stays open as long as the page does.
   */
  priority?: RequestPriority;
  /** Remember when the server produced this answer, for the query shown under this key (updated-at.ts). */
  updatedAtOf?: QueryKey;
}

/** The anti-forgery header the BFF requires on every state-changing or token-attaching /api call. */
export const ANTI_FORGERY_HEADERS = { 'X-Requested-With': 'wayfare' } as const;

/** Sends one request to the BFF (same origin, session cookie) and returns the raw Response when ok. */
export async function apiRequest(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const { method = 'GET', body, signal, accept = 'application/json', priority } = options;
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
      ...(priority && { priority }),
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw networkError(cause, trace.traceId);
  }
  if (!response.ok) throw await errorFromResponse(response, trace.traceId);
  return response;
}

/** What the contract schema `Schema` gives: the type of an answer the BFF checked against it. */
export type Answer<Schema extends z.ZodType> = z.output<Schema>;

/**
 * Sends a request and reads its JSON answer, of the contract's type `Answer` (the schema's output type,
 * named by the caller). The BFF has checked the answer against that schema before sending it (a relayed
 * one when it arrived, its own when it serialised it), so the SPA does not check it again: it would load
 * a schema library before any page can draw, to learn nothing new. A body that is not JSON is an error.
 */
export async function apiJson<Answer>(path: string, options: ApiRequestOptions = {}): Promise<Answer> {
  const response = await apiRequest(path, options);
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  let json: unknown;
  try {
    json = response.status === 204 ? undefined : await response.json();
  } catch {
    throw unreadableResponse(response.status, requestId);
  }
  if (options.updatedAtOf) recordUpdatedAt(options.updatedAtOf, response);
  return json as Answer;
}

/** Sends a request whose answer carries no body the app needs (204, or an acknowledgement). */
export async function apiSend(path: string, options: ApiRequestOptions = {}): Promise<void> {
  const response = await apiRequest(path, options);
  await response.body?.cancel();
}

export async function errorFromResponse(response: Response, traceId?: string): Promise<BffError> {
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  try {
    const body = readErrorEnvelope(await response.json());
    if (body) return new BffError({ status: response.status, body, requestId, traceId });
  } catch {
    // Not JSON: a proxy page or an empty body; reported as an unexpected response below.
  }
  return unreadableResponse(response.status, requestId, traceId);
}
