/**
 * Node's HTTP server refuses an HTTP/1.1 request without a Host header itself, with a bare 400 and an
 * empty body. The servers turn that check off (pass these options as Fastify's `http`) and refuse the
 * request in an early hook instead (refuseWithoutHost), so the answer is the error envelope like every
 * other client error.
 */
export const HOST_HEADER_CHECKED_BY_APP = { requireHostHeader: false } as const;

export const MISSING_HOST_MESSAGE = 'The request must name its host in a Host header';

interface RawRequest {
  httpVersionMajor: number;
  httpVersionMinor: number;
  headers: { host?: string | undefined };
}

/** An HTTP/1.1 request that names no host (RFC 9112 §3.2: answered 400). HTTP/1.0 and HTTP/2 need none. */
export function lacksHostHeader(raw: RawRequest): boolean {
  return raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 && raw.headers.host === undefined;
}

/**
 * An onRequest hook that fails a request without a Host header with the server's own error (its error
 * handler writes the envelope) and closes the connection afterwards, as Node's own check did.
 */
export function refuseWithoutHost<Failure extends Error>(failure: () => Failure) {
  return (
    request: { raw: RawRequest },
    reply: { header(name: string, value: string): unknown },
    next: (error?: Failure) => void,
  ): void => {
    if (!lacksHostHeader(request.raw)) {
      next();
      return;
    }
    reply.header('connection', 'close');
    next(failure());
  };
}
