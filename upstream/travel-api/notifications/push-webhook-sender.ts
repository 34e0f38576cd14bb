import { setTimeout as sleep } from 'node:timers/promises';
import { PUSH_WEBHOOK_CONSUMER, type PushWebhookPayload } from '#shared/upstream/notifications.ts';
import { signedHeaders } from '#shared/upstream/sign-request.ts';

export interface PushWebhookLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export type PushOutcome = 'delivered' | 'failed';

export interface PushWebhookSenderOptions {
  url: string;
  secret: string;
  /** Attempts per notification, the first included. */
  maxAttempts: number;
  logger: PushWebhookLogger;
  /** Called once per notification with the final outcome. */
  onSettled: (notificationId: string, outcome: PushOutcome) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Statuses worth another attempt: the receiver may succeed later. Other 4xx are final. */
const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * The push channel: POSTs each notification to the app's webhook, signed like a /v1 request (consumer
 * `travel-booking-service`, keyed with the webhook secret), re-signed on every attempt. Failures retry
 * with jittered exponential back-off up to maxAttempts; the outcome is reported, never thrown.
 */
export class PushWebhookSender {
  readonly #options: Required<Omit<PushWebhookSenderOptions, 'fetch'>> & { fetch: typeof fetch };
  readonly #path: string;
  readonly #controller = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: PushWebhookSenderOptions) {
    this.#options = {
      baseDelayMs: 500,
      maxDelayMs: 8000,
      timeoutMs: 5000,
      fetch: globalThis.fetch,
      ...options,
    };
    const url = new URL(options.url);
    this.#path = url.pathname;
  }

  /** Starts delivering in the background. */
  send(payload: PushWebhookPayload): void {
    const delivery = this.#deliver(payload).finally(() => this.#inFlight.delete(delivery));
    this.#inFlight.add(delivery);
  }

  get pending(): number {
    return this.#inFlight.size;
  }

  /** Resolves once every delivery under way has settled. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Stops waiting between attempts; deliveries under way settle as failed. */
  async close(): Promise<void> {
    this.#controller.abort();
    await this.idle();
  }

  async #deliver(payload: PushWebhookPayload): Promise<void> {
    const { maxAttempts, logger, onSettled } = this.#options;
    const notificationId = payload.notification.id;
    const body = JSON.stringify(payload);
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (this.#controller.signal.aborted) break;
      const result = await this.#attempt(body);
      if (result.ok) {
        logger.info({ notificationId, attempt }, 'push webhook delivered');
        onSettled(notificationId, 'delivered');
        return;
      }
      const final = !result.retryable || attempt === maxAttempts || this.#controller.signal.aborted;
      logger.warn(
        { notificationId, attempt, status: result.status, reason: result.reason, final },
        'push webhook attempt failed',
      );
      if (final) break;
      try {
        await sleep(this.#backoff(attempt, result.retryAfterMs), undefined, {
          signal: this.#controller.signal,
        });
      } catch {
        logger.warn({ notificationId, attempt }, 'push webhook abandoned at shutdown');
        break;
      }
    }
    onSettled(notificationId, 'failed');
  }

  async #attempt(
    body: string,
  ): Promise<
    { ok: true } | { ok: false; retryable: boolean; status?: number; reason?: string; retryAfterMs?: number }
  > {
    const { url, secret, timeoutMs, fetch } = this.#options;
    const headers = signedHeaders({
      consumer: PUSH_WEBHOOK_CONSUMER,
      secret,
      method: 'POST',
      path: this.#path,
      body,
    });
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any([this.#controller.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body?.cancel();
      if (response.ok) return { ok: true };
      return {
        ok: false,
        retryable: RETRYABLE_STATUSES.has(response.status),
        status: response.status,
        retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
      };
    } catch (error) {
      return { ok: false, retryable: true, reason: failureReason(error) };
    }
  }

  #backoff(attempt: number, retryAfter: number | undefined): number {
    const { baseDelayMs, maxDelayMs } = this.#options;
    if (retryAfter !== undefined) return Math.min(retryAfter, maxDelayMs);
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

/** A log-safe reason: the system error code (ECONNREFUSED, ...) or the error's name, never a URL or body. */
function failureReason(error: unknown): string {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'network error';
}
