import { createServer, type Server } from 'node:http';

/**
 * The fleet journeys' trace collector: an OTLP/HTTP receiver (JSON, as @opentelemetry/exporter-trace-otlp-http
 * sends it) on loopback that the fleet's BFF instances and travel API export to, and a reader of the travel
 * API's log lines. It keeps what the trace journey reads and nothing else: the ids, name, kind and service of
 * each server and client span, and the ids and route of each travel API request line, the latest few
 * thousand of each. An export is answered as soon as it is read, so the fleet never waits on it.
 */

/** A span as the journey reads it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's span kind: 2 a server, 3 a client. */
  kind: number;
  /** The exporting process's `service.name`. */
  service: string;
}

/** A request line of the travel API's log, as the journey reads it. */
export interface ReceivedLogLine {
  trace_id: string;
  span_id: string;
  route: string;
  status: number;
}

/** What the receiver answers for one trace id (GET /traces/:traceId). */
export interface ReceivedTrace {
  spans: ReceivedSpan[];
  travelApiLogLines: ReceivedLogLine[];
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}

interface OtlpTraceExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[];
    }[];
  }[];
}

const SERVER_OR_CLIENT = new Set([2, 3]);
/** A batch is 512 spans at most (OTEL_BSP_MAX_EXPORT_BATCH_SIZE): far below this. */
const MAX_EXPORT_BYTES = 16 * 1024 * 1024;
const TRAVEL_API_LINE = '[travel-api] {';

export class OtlpReceiver {
  readonly #limit: number;
  readonly #spans: ReceivedSpan[] = [];
  readonly #lines: ReceivedLogLine[] = [];

  /** `limit`: how many spans, and how many log lines, are kept (the oldest go first). */
  constructor(limit = 4000) {
    this.#limit = limit;
  }

  /** Keeps the server and client spans of one OTLP/JSON trace export. */
  keepExport(body: OtlpTraceExport): void {
    for (const resource of body.resourceSpans ?? []) {
      const service =
        resource.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
          .stringValue ?? '';
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? []) {
          if (!SERVER_OR_CLIENT.has(span.kind)) continue;
          this.#keep(this.#spans, {
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            service,
          });
        }
    }
  }

  /**
   * Reads one line of the fleet's console (`npm run start:fleet` with WAYFARE_LOG_FORMAT=json prefixes
   * each service's pino line with its name) and keeps a travel API request line that carries a trace id.
   */
  keepConsoleLine(line: string): void {
    if (!line.startsWith(TRAVEL_API_LINE)) return;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line.slice(TRAVEL_API_LINE.length - 1)) as Record<string, unknown>;
    } catch {
      return;
    }
    if (parsed.msg !== 'request' || typeof parsed.trace_id !== 'string') return;
    this.#keep(this.#lines, {
      trace_id: parsed.trace_id,
      span_id: String(parsed.span_id),
      route: String(parsed.route),
      status: Number(parsed.status),
    });
  }

  ofTrace(traceId: string): ReceivedTrace {
    return {
      spans: this.#spans.filter((span) => span.traceId === traceId),
      travelApiLogLines: this.#lines.filter((line) => line.trace_id === traceId),
    };
  }

  #keep<T>(kept: T[], item: T): void {
    kept.push(item);
    if (kept.length > this.#limit) kept.splice(0, kept.length - this.#limit);
  }

  /** Listens on 127.0.0.1: POST /v1/traces (OTLP/HTTP, JSON) and GET /traces/:traceId. */
  async listen(port: number): Promise<Server> {
    const server = createServer((request, response) => {
      const url = request.url ?? '/';
      if (request.method === 'GET' && url.startsWith('/traces/')) {
        const traceId = url.slice('/traces/'.length);
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(this.ofTrace(traceId)));
        return;
      }
      if (request.method !== 'POST' || url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) {
        response.writeHead(415, { 'content-type': 'text/plain' }).end('OTLP/HTTP with JSON only\n');
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_EXPORT_BYTES) request.destroy();
        else chunks.push(chunk);
      });
      request.on('end', () => {
        try {
          this.keepExport(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraceExport);
        } catch {
          response.writeHead(400, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return server;
  }
}
