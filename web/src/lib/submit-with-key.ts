import { apiJson } from './api-client.ts';
import { BffError } from './bff-error.ts';

/** A dropped connection during a submit is sent again, with the same key, this many times. */
const SUBMIT_ATTEMPTS = 3;
const RESUBMIT_DELAY_MS = 500;

/**
 * POSTs a write that must happen once under its Idempotency-Key: a connection dropped mid-submit is sent
 * again with the same key, never a new one, so the server answers it once.
 */
export async function submitWithKey<T>(path: string, body: unknown, key: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await apiJson<T>(path, { method: 'POST', body, headers: { 'Idempotency-Key': key } });
    } catch (error) {
      const dropped = error instanceof BffError && error.code === 'NETWORK_ERROR';
      if (!dropped || attempt >= SUBMIT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, RESUBMIT_DELAY_MS * attempt));
    }
  }
}
