import { readSseStream, type SseMessage } from '#shared/sse.ts';
import { inject } from 'vitest';

/**
 * A browser tab reading an SSE response with fetch: it collects every event as it arrives (with the
 * time it arrived) and lets a test wait for the one it expects.
 */
export class BrowserStream {
  readonly events: (SseMessage & { at: number })[] = [];
  readonly response: Response;
  /** Settles when the server ends the stream (or the tab aborts it). */
  readonly ended: Promise<void>;
  readonly #abort: AbortController;
  readonly #waiters = new Set<() => void>();

  private constructor(response: Response, abort: AbortController) {
    this.response = response;
    this.#abort = abort;
    this.ended = this.#read();
  }

  static async open(url: string, init: RequestInit = {}): Promise<BrowserStream> {
    const abort = new AbortController();
    const response = await fetch(url, { ...init, signal: abort.signal });
    return new BrowserStream(response, abort);
  }

  /** Waits for the first event (from `from` on) that matches; fails after `timeoutMs` (the suite's wait). */
  async next(
    match: (event: SseMessage) => boolean,
    { from = 0, timeoutMs = inject('eventuallyMs') }: { from?: number; timeoutMs?: number } = {},
  ): Promise<SseMessage & { at: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`No matching event; got ${JSON.stringify(this.events.map((e) => e.event))}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  named(event: string): (SseMessage & { at: number })[] {
    return this.events.filter((message) => message.event === event);
  }

  data<T = unknown>(event: string): T[] {
    return this.named(event).map((message) => JSON.parse(message.data) as T);
  }

  abort(): void {
    this.#abort.abort();
  }

  async #read(): Promise<void> {
    if (this.response.body === null) return;
    try {
      for await (const message of readSseStream(this.response.body)) {
        this.events.push({ ...message, at: performance.now() });
        for (const wake of [...this.#waiters]) wake();
      }
    } catch {
      // An aborted or broken stream simply ends; tests assert on what arrived.
    } finally {
      for (const wake of [...this.#waiters]) wake();
    }
  }
}
