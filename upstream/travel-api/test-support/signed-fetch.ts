import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { TEST_CONSUMER } from './start-travel-api.ts';

export interface SignedRequest {
  method?: string;
  /** Path with an optional query string. */
  path: string;
  /** A value to send as JSON, or the exact body text/bytes. */
  json?: unknown;
  body?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
  consumer?: string;
  secret?: string;
  now?: Date;
}

/** One /v1 request signed over the exact bytes it sends, as a consumer would make it. */
export async function signedFetch(baseUrl: string, request: SignedRequest): Promise<Response> {
  const method =
    request.method ?? (request.json === undefined && request.body === undefined ? 'GET' : 'POST');
  const body = request.json === undefined ? request.body : Buffer.from(JSON.stringify(request.json));
  const headers: Record<string, string> = {
    ...signedHeaders({
      consumer: request.consumer ?? TEST_CONSUMER.slug,
      secret: request.secret ?? TEST_CONSUMER.secret,
      method,
      path: request.path,
      body,
      ...(request.now ? { now: request.now } : {}),
    }),
    ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
    ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
    ...request.headers,
  };
  const payload = typeof body === 'string' || body === undefined ? body : new Uint8Array(body);
  return fetch(`${baseUrl}${request.path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
}
