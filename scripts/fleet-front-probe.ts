// Whether the local fleet's front sends requests to a given instance again: the second half of "ready"
// in a rolling restart (`npm run fleet:roll`). An instance that answers /readyz on its own port may still be
// skipped by the front; the next instance drains only once this one answers through the front.
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface FrontProbe {
  /** Loopback port of the fleet's TLS front. */
  frontPort: number;
  /** The front's certificate authority (PEM). */
  ca: string;
  /** The instance as the front names it in `X-Wayfare-Instance`: `127.0.0.1:<port>`. */
  instance: string;
  timeoutMs: number;
  /** Between two asks that reached another instance or failed. */
  intervalMs?: number;
}

/** An answer of the front, read whole. */
export interface FrontAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request to the front on `frontPort` (its certificate signed by `ca`), on a connection of its own. */
export function askFront(
  frontPort: number,
  ca: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<FrontAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port: frontPort,
        servername: 'localhost',
        ca,
        path: target,
        method: options.method ?? 'GET',
        headers: { host: `localhost:${frontPort}`, ...options.headers },
        agent: false,
        timeout: 5_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * Resolves once the front passes a GET /readyz to `instance` and that instance answers it 200 (round
 * robin brings it there within a few asks); rejects with the last thing seen after `timeoutMs`.
 */
export async function untilServedThroughFront(probe: FrontProbe): Promise<void> {
  const { frontPort, ca, instance, timeoutMs, intervalMs = 100 } = probe;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: string;
    try {
      const { status, headers } = await askFront(frontPort, ca, '/readyz');
      // $upstream_addr lists every instance the front tried, the one that answered last.
      const answeredBy =
        String(headers['x-wayfare-instance'] ?? '')
          .split(/,\s*/)
          .at(-1) || undefined;
      if (status === 200 && answeredBy === instance) return;
      last = `${status} from ${answeredBy ?? 'the front itself'}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the front did not send a request to ${instance} within ${timeoutMs / 1000} s (last answer: ${last})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
