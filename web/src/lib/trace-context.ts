/**
 * The W3C trace context the app starts for each call to the BFF: the BFF continues the trace (and the
 * travel API after it), so every span and log line of the traveler's action carries its trace id. No
 * tracing library runs in the browser: a new trace is two random ids, and nothing is exported from here.
 */
export interface StartedTrace {
  /** The `traceparent` header: version 00, trace id, this call's span id, sampled. */
  traceparent: string;
  traceId: string;
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

export function startTrace(): StartedTrace {
  const traceId = randomHex(16);
  return { traceparent: `00-${traceId}-${randomHex(8)}-01`, traceId };
}

/**
 * The short reference an error notice shows for a call: the trace id's first twelve characters, which
 * find the call's log lines (every one carries the whole trace id) and its trace.
 */
export function traceReference(traceId: string): string {
  return traceId.slice(0, 12);
}
