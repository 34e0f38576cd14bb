import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { hashBody, signedHeaders } from '#shared/upstream/sign-request.ts';
import { ErrorEnvelopeSchema, type ErrorBody } from '#shared/upstream/error-envelope.ts';
import type { AppError } from '../errors.ts';
import { SigningSecretSelector, type SigningSecret } from './signing-secret-selector.ts';
import { translateUpstreamError, type UpstreamFailure } from './translate-upstream-error.ts';
import { diagnoseConsumerRejection } from './diagnose-consumer-rejection.ts';
import type { RetryPolicy, TravelApi, TravelApiRequestBase } from './travel-api.ts';
import { queryString } from './query-string.ts';
import { StreamPools } from './stream-pools.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';
import { selfTimedCall } from '#shared/observability/telemetry.ts';

export interface TravelApiClientOptions {
  baseUrl: string;
  consumerSlug: string;
  consumerSecret: string;
  consumerNextSecret?: string | undefined;
  /** Limit for one attempt, from sending to the whole JSON body (to the headers for a stream). */
  timeoutMs: number;
  /** How long all the waits between retries of one call may add up to. */
  retryBudgetMs: number;
  logger: FastifyBaseLogger;
  /** The clock signatures are made with; tests move it to provoke skew. */
  now?: () => number;
  dispatcher?: Dispatcher;
  /** Certificate authorities (PEM) trusted for an https baseUrl besides the system's. */
  ca?: string | undefined;
}

/** Attempts of one call, not counting the re-signing with the other secret or a token refresh. */
const MAX_ATTEMPTS = 3;
const NETWORK_RETRY_BASE_DELAY_MS = 100;

type AttemptOutcome =
  | {
      ok: true;
      status: number;
      headers: Dispatcher.ResponseData['headers'];
      body: Dispatcher.ResponseData['body'];
      signal: AbortSignal;
    }
  | { ok: false; failure: UpstreamFailure };

interface RetryState {
  attempts: number;
  waitedMs: number;
  refreshedToken: boolean;
  triedOtherSecret: boolean;
}

/**
 * The only caller of the travel API. Every call serialises its body once, signs those exact bytes,
 * sends them with the consumer headers, the traveler's (or guest's) token and the request id, and turns
 * every failure into an AppError carrying the spec's envelope (translate-upstream-error.ts).
 */
export function createTravelApiClient(options: TravelApiClientOptions): TravelApi {
  const now = options.now ?? Date.now;
  const secrets = new SigningSecretSelector(options.consumerSecret, options.consumerNextSecret);
  const ownsDispatcher = options.dispatcher === undefined;
  // Over https the pools offer HTTP/2 first (ALPN) and take HTTP/1.1 when that is all the travel API
  // speaks. On HTTP/2 a connection carries up to 100 concurrent streams (or fewer, if the server says
  // so), so a few connections hold every traveler's notification stream instead of one each.
  const connect = {
    preferH2: true,
    ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
  };
  const dispatcher =
    options.dispatcher ??
    new Agent({ allowH2: true, connect, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
  // Event streams get connections of their own. An undici pool looks through its connections for a free
  // one on every request and counts them on every disconnect; thousands of notification streams, each
  // holding a connection (HTTP/1.1) or a stream (HTTP/2) for hours, would make every JSON call (and every
  // idle keep-alive closing) pay for all of them. The streams themselves are spread over pools of a few
  // hundred each, for the same reason (stream-pools.ts).
  const streamPools = new StreamPools(
    () => options.dispatcher ?? new Agent({ allowH2: true, connect, keepAliveTimeout: 1_000 }),
  );
  const originUrl = new URL(new URL(options.baseUrl).origin);
  const origin = originUrl.origin;

  async function attempt(
    request: TravelApiRequestBase & { stream?: boolean; lastEventId?: string },
    target: string,
    body: SignedBody | undefined,
    token: string | undefined,
    secret: SigningSecret,
  ): Promise<AttemptOutcome> {
    const headers: Record<string, string> = {
      ...request.headers,
      accept: request.stream ? 'text/event-stream' : 'application/json',
      'x-request-id': request.requestId,
      ...signedHeaders({
        consumer: options.consumerSlug,
        secret: secret.secret,
        method: request.method,
        path: request.path,
        body: body?.bytes,
        bodyHash: body?.hash,
        now: now(),
      }),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (request.lastEventId !== undefined) headers['last-event-id'] = request.lastEventId;

    // One controller per attempt, aborted by the caller's signal or by the deadline: no AbortSignal.any
    // composite, which a notification stream would keep (with its weak references) for hours.
    const controller = new AbortController();
    const signal = controller.signal;
    const callerSignal = request.signal;
    const callerAborted = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) callerAborted();
    else callerSignal?.addEventListener('abort', callerAborted, { once: true });
    const timer = setTimeout(() => controller.abort(new UpstreamTimeout()), options.timeoutMs);
    const settled = () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', callerAborted);
    };
    // In a trace that is not recorded the call gives its traceparent and its duration itself.
    const timed = selfTimedCall(originUrl, request.method, headers);
    // A stream counts in its pool from its request until its body closes (or the request fails).
    const lease = request.stream ? streamPools.take() : undefined;
    try {
      const send = () =>
        undiciRequest(origin + target, {
          dispatcher: lease?.dispatcher ?? dispatcher,
          method: request.method,
          headers,
          body: body?.bytes,
          signal,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      const response = await (timed === undefined ? send() : timed.send(send));
      // A stream's deadline ends with its headers; a JSON call's with its body.
      if (request.stream && response.statusCode >= 200 && response.statusCode < 300) clearTimeout(timer);
      // A body closes once: `on` keeps no `once` wrapper for the hours an event stream lasts.
      response.body.on('close', () => {
        settled();
        lease?.release();
        timed?.answered(response.statusCode, response.statusText);
      });
      return {
        ok: true,
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
        signal,
      };
    } catch (error) {
      settled();
      lease?.release();
      timed?.failed(error);
      return { ok: false, failure: transportFailure(error, signal, request.signal) };
    }
  }

  function transportFailure(
    error: unknown,
    signal: AbortSignal,
    callerSignal?: AbortSignal,
  ): UpstreamFailure {
    if (callerSignal?.aborted) return { kind: 'aborted', cause: callerSignal.reason };
    if (signal.aborted && signal.reason instanceof UpstreamTimeout) {
      return { kind: 'timeout', timeoutMs: options.timeoutMs, cause: error };
    }
    return { kind: 'network', cause: error };
  }

  async function readText(outcome: Extract<AttemptOutcome, { ok: true }>, request: TravelApiRequestBase) {
    try {
      return { ok: true as const, text: await outcome.body.text() };
    } catch (error) {
      return { ok: false as const, failure: transportFailure(error, outcome.signal, request.signal) };
    }
  }

  async function call(
    request: TravelApiRequestBase & { schema?: z.ZodType; stream?: boolean; lastEventId?: string },
  ): Promise<unknown> {
    const log = request.log ?? options.logger;
    const body = request.body === undefined ? undefined : signedBody(request.body);
    const target = request.path + queryString(request.query);
    const policy = request.retry ?? (request.method === 'GET' ? 'idempotent' : 'none');
    const state: RetryState = { attempts: 0, waitedMs: 0, refreshedToken: false, triedOtherSecret: false };
    let token = request.auth.kind === 'none' ? undefined : request.auth.token;
    let secret = secrets.active();

    for (;;) {
      state.attempts += 1;
      const startedAt = performance.now();
      const outcome = await attempt(request, target, body, token, secret);
      const elapsedMs = Math.round(performance.now() - startedAt);

      if (!outcome.ok) {
        // A browser that went away (a tab closed, a search replaced) is routine, not a warning.
        const level = outcome.failure.kind === 'aborted' ? 'info' : 'warn';
        log[level](
          {
            upstream: { method: request.method, path: request.path, attempt: state.attempts, elapsedMs },
            failure: outcome.failure.kind,
            cause: causeCode(outcome.failure),
          },
          'travel API call failed before a response',
        );
        const delay = networkRetryDelay(outcome.failure, policy, state);
        if (delay === undefined) throw translateUpstreamError(outcome.failure);
        retried('network');
        await waitBeforeRetry(delay, state, request.signal);
        continue;
      }

      log.debug(
        {
          upstream: {
            method: request.method,
            path: request.path,
            status: outcome.status,
            attempt: state.attempts,
            elapsedMs,
          },
        },
        'travel API call answered',
      );

      if (outcome.status >= 200 && outcome.status < 300) {
        if (secrets.confirm(secret.name)) {
          log.info(
            { consumerSecret: secret.name },
            `travel API accepted the ${secret.name} consumer secret; signing with it from now on`,
          );
        }
        if (request.stream) return streamResponse(outcome);
        return parseBody(outcome, request);
      }

      const read = await readText(outcome, request);
      if (!read.ok) throw translateUpstreamError(read.failure);
      const envelope = envelopeOf(read.text);
      const retryAfterHeader = headerValue(outcome.headers['retry-after']);

      if (outcome.status === 401 && envelope?.code === 'CONSUMER_AUTH_REQUIRED') {
        const other = state.triedOtherSecret ? undefined : secrets.alternativeTo(secret.name);
        if (other) {
          state.triedOtherSecret = true;
          log.warn(
            { consumerSecret: secret.name },
            `travel API rejected the ${secret.name} consumer secret; signing again with the ${other.name} secret`,
          );
          secret = other;
          retried('consumer_secret');
          continue;
        }
        const diagnosis = diagnoseConsumerRejection(headerValue(outcome.headers.date), now());
        log.error(
          {
            configurationFault: 'consumer-signature',
            consumer: options.consumerSlug,
            skewSeconds: diagnosis.skewSeconds,
          },
          `travel API rejected the consumer signature: ${diagnosis.summary}`,
        );
        throw translateUpstreamError({ kind: 'consumer-rejected', body: read.text });
      }

      if (
        outcome.status === 401 &&
        envelope?.code === 'UNAUTHORIZED' &&
        request.auth.kind === 'bearer' &&
        request.auth.refresh &&
        !state.refreshedToken
      ) {
        state.refreshedToken = true;
        token = await request.auth.refresh();
        retried('token_refresh');
        continue;
      }

      const delay = envelope ? responseRetryDelay(outcome.status, envelope, policy, state) : undefined;
      if (delay === undefined) {
        throw translateUpstreamError({
          kind: 'response',
          status: outcome.status,
          body: read.text,
          retryAfterHeader,
        });
      }
      retried(envelope?.recoveryAction === 'RETRY_NOW' ? 'retry_now' : 'retry_later');
      await waitBeforeRetry(delay, state, request.signal);
    }
  }

  function networkRetryDelay(
    failure: UpstreamFailure,
    policy: RetryPolicy,
    state: RetryState,
  ): number | undefined {
    if (failure.kind !== 'network' || policy !== 'idempotent' || state.attempts >= MAX_ATTEMPTS)
      return undefined;
    const delay = NETWORK_RETRY_BASE_DELAY_MS * 2 ** (state.attempts - 1) * (0.5 + Math.random() / 2);
    return state.waitedMs + delay <= options.retryBudgetMs ? delay : undefined;
  }

  function responseRetryDelay(
    status: number,
    envelope: ErrorBody,
    policy: RetryPolicy,
    state: RetryState,
  ): number | undefined {
    if (state.attempts >= MAX_ATTEMPTS) return undefined;
    if (envelope.recoveryAction === 'RETRY_NOW') return 0;
    if (status !== 503 || envelope.recoveryAction !== 'RETRY_LATER' || policy !== 'idempotent')
      return undefined;
    const delay = (envelope.retryAfterSeconds ?? 0) * 1000;
    return state.waitedMs + delay <= options.retryBudgetMs ? delay : undefined;
  }

  async function waitBeforeRetry(delayMs: number, state: RetryState, signal?: AbortSignal): Promise<void> {
    state.waitedMs += delayMs;
    if (delayMs <= 0) return;
    try {
      await sleep(delayMs, undefined, { signal });
    } catch (error) {
      throw translateUpstreamError({ kind: 'aborted', cause: error });
    }
  }

  async function parseBody(
    outcome: Extract<AttemptOutcome, { ok: true }>,
    request: TravelApiRequestBase & { schema?: z.ZodType },
  ): Promise<unknown> {
    const read = await readText(outcome, request);
    if (!read.ok) throw translateUpstreamError(read.failure);
    const schema = request.schema;
    if (schema === undefined) return undefined;
    let json: unknown;
    try {
      json = read.text === '' ? undefined : JSON.parse(read.text);
    } catch (error) {
      throw contractViolation(request, [], error);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw contractViolation(request, parsed.error.issues, parsed.error);
    return parsed.data;
  }

  function contractViolation(
    request: TravelApiRequestBase,
    issues: readonly z.core.$ZodIssue[],
    cause: unknown,
  ): AppError {
    (request.log ?? options.logger).error(
      { upstream: { method: request.method, path: request.path }, issues: issues.map(describeIssue) },
      'travel API answer breaks the contract',
    );
    return translateUpstreamError({ kind: 'contract', issues, cause });
  }

  /**
   * The event stream's body as undici hands it over: a Node stream, not a web ReadableStream and a
   * Response around it, because the notification hub keeps one open per signed-in traveler for hours and
   * every adapter layer costs memory per stream and work per event.
   */
  function streamResponse(outcome: Extract<AttemptOutcome, { ok: true }>): Readable {
    const contentType = headerValue(outcome.headers['content-type']) ?? '';
    if (!contentType.startsWith('text/event-stream')) {
      outcome.body.destroy();
      throw translateUpstreamError({ kind: 'contract', issues: [], cause: `content-type ${contentType}` });
    }
    return outcome.body;
  }

  return {
    request: call as TravelApi['request'],
    async close() {
      if (ownsDispatcher)
        await Promise.all([dispatcher, ...streamPools.dispatchers].map((pool) => pool.close()));
    },
  };
}

/** A call's body as sent: serialised once, and hashed once for every attempt's signature. */
interface SignedBody {
  bytes: Buffer;
  hash: string;
}

function signedBody(value: unknown): SignedBody {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  return { bytes, hash: hashBody(bytes) };
}

class UpstreamTimeout extends Error {
  override name = 'UpstreamTimeout';
}

function envelopeOf(text: string): ErrorBody | undefined {
  try {
    const parsed = ErrorEnvelopeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
}

/** The transport's error code (ECONNREFUSED, UND_ERR_SOCKET, ...), never its message. */
function causeCode(failure: UpstreamFailure): string | undefined {
  const cause = 'cause' in failure ? failure.cause : undefined;
  if (!(cause instanceof Error)) return undefined;
  const inner = cause.cause instanceof Error ? cause.cause : cause;
  return (inner as Error & { code?: string }).code ?? inner.name;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeIssue(issue: z.core.$ZodIssue): { path: string; code: string; message: string } {
  return { path: issue.path.map(String).join('.'), code: issue.code, message: issue.message };
}

/** One more attempt of a travel API call, by why it was made. */
function retried(
  reason: 'network' | 'consumer_secret' | 'token_refresh' | 'retry_now' | 'retry_later',
): void {
  bffMetrics().upstreamRetries.add(1, { reason });
}
