import { randomBytes } from 'node:crypto';
import { createServer, Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { encodeSseComment, encodeSseEvent } from '#shared/sse.ts';
import { errorEnvelope, CONSUMER_AUTH_REQUIRED_ENVELOPE } from '#shared/upstream/error-envelope.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { verifySignature } from '#shared/upstream/verify-signature.ts';

/** One POST to a stays stream, as the scripted travel API received it. */
export interface StaysCall {
  path: string;
  body: unknown;
  authorization: string | undefined;
  res: ServerResponse;
  /** Resolves when the BFF closes its side of the connection (it aborted the upstream request). */
  closed: Promise<void>;
}

export function notificationFixture(id: string): Notification {
  const at = new Date().toISOString();
  return {
    id,
    tripId: '7d0c1a7e-0b1d-4c5e-9a01-00000000aa01',
    segmentId: '7d0c1a7e-0b1d-4c5e-9a01-00000000bb01',
    eventType: 'SEGMENT_DELAYED',
    severity: 'warning',
    title: `Flight delayed (${id})`,
    body: 'Your flight leaves 40 minutes late.',
    deepLink:
      'wayfare://trips/7d0c1a7e-0b1d-4c5e-9a01-00000000aa01/segment/7d0c1a7e-0b1d-4c5e-9a01-00000000bb01',
    channel: 'push',
    dispatchedAt: at,
    readAt: null,
    isDedupSkipped: false,
    deliveryStatus: 'delivered',
    createdAt: at,
  };
}

/**
 * A travel API for BFF tests whose every answer the test scripts: it checks the consumer signature of
 * each call like the real service, then hands stays streams to the test and serves the notification
 * list and stream from a list the test fills.
 */
export class ScriptedTravelApi {
  readonly #server: Server | Http2SecureServer;
  readonly #sockets = new Set<Duplex>();
  readonly #consumerSecret: string;
  readonly #staysWaiters: ((call: StaysCall) => void)[] = [];
  readonly #staysCalls: StaysCall[] = [];
  readonly persisted: Notification[] = [];
  readonly notificationStreams = new Set<ServerResponse>();
  readonly #streamsByTraveler = new Map<string, Set<ServerResponse>>();
  notificationStreamOpens = 0;
  /** The next notification stream opens answer this status with an envelope instead. */
  refuseStreams: { remaining: number; status: number } = { remaining: 0, status: 503 };
  /** Travelers whose notification stream opens are accepted and never answered (no status, no headers). */
  readonly unansweredStreamsOf = new Set<string>();
  rejectedSignatures = 0;
  staysCallCount = 0;
  url = '';
  /** TCP connections the BFF opened to it so far. */
  connections = 0;
  /**
   * When set, each notification stream opened afterwards gets a heartbeat comment this often, from its
   * own opening on, as the travel API stand-in sends them (TRAVEL_API_SSE_HEARTBEAT_SECONDS).
   */
  heartbeatMs: number | undefined;

  /** With `tls`, it serves HTTPS with HTTP/2 (and HTTP/1.1 to clients that do not offer h2). */
  constructor(consumerSecret: string, tls?: { cert: Buffer; key: Buffer }) {
    this.#consumerSecret = consumerSecret;
    const handle = (req: IncomingMessage, res: ServerResponse) => void this.#handle(req, res);
    // node:http2's compatibility request and response have the shape of node:http's.
    this.#server = tls
      ? createSecureServer(
          { ...tls, allowHTTP1: true },
          handle as unknown as Parameters<typeof createSecureServer>[1],
        )
      : createServer(handle);
    this.#server.on('connection', (socket: Duplex) => {
      this.connections += 1;
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const scheme = this.#server instanceof Server ? 'http' : 'https';
    this.url = `${scheme}://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.notificationStreams) res.destroy();
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  /** The next POST to a stays stream (already received, or the next to come). */
  nextStaysCall(): Promise<StaysCall> {
    const received = this.#staysCalls.shift();
    if (received) return Promise.resolve(received);
    return new Promise((resolve) => this.#staysWaiters.push(resolve));
  }

  /**
   * Persists a notification; unless `live: false` (the multi-worker gap) every open stream gets it. With
   * `traced`, each stream's event carries a trace of its own, as the service's dispatch to each traveler
   * does (its `traceparent` field).
   */
  emit(notification: Notification, { live = true, traced = false } = {}): void {
    this.persisted.push(notification);
    if (!live) return;
    const untraced = traced ? undefined : notificationEvent(notification);
    for (const res of this.notificationStreams) res.write(untraced ?? notificationEvent(notification, true));
  }

  /** Persists a notification and sends it live to the open streams of one traveler only (`traced`: above). */
  emitTo(travelerId: string, notification: Notification, { traced = false } = {}): number {
    this.persisted.push(notification);
    const streams = this.#streamsByTraveler.get(travelerId);
    if (streams === undefined) return 0;
    const bytes = notificationEvent(notification, traced);
    for (const res of streams) res.write(bytes);
    return streams.size;
  }

  /** Ends every notification stream gracefully, as the service does on shutdown. */
  sayDone(): void {
    for (const res of this.notificationStreams) res.end(encodeSseEvent({ event: 'done', data: {} }));
    this.notificationStreams.clear();
  }

  /** Cuts every notification stream without `done`. */
  dropStreams(): void {
    for (const res of this.notificationStreams) res.destroy();
    this.notificationStreams.clear();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://scripted');
    const verified = verifySignature({
      headers: {
        consumer: req.headers['service-consumer'] as string | undefined,
        timestamp: req.headers['service-timestamp'] as string | undefined,
        signature: req.headers['service-signature'] as string | undefined,
      },
      method: req.method ?? 'GET',
      path: url.pathname,
      body,
      secrets:
        req.headers['service-consumer'] === 'wayfare-web' ? { current: this.#consumerSecret } : undefined,
    });
    if (!verified.ok) {
      this.rejectedSignatures += 1;
      return sendJson(res, 401, CONSUMER_AUTH_REQUIRED_ENVELOPE);
    }
    if (req.method === 'POST' && url.pathname.startsWith('/v1/stays/')) {
      this.staysCallCount += 1;
      const call: StaysCall = {
        path: url.pathname,
        body: JSON.parse(body.toString('utf8')) as unknown,
        authorization: req.headers.authorization,
        res,
        closed: new Promise((resolve) => res.once('close', () => resolve())),
      };
      const waiter = this.#staysWaiters.shift();
      if (waiter) waiter(call);
      else this.#staysCalls.push(call);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v1/me/notifications/stream') {
      this.notificationStreamOpens += 1;
      // The BFF's test sessions carry `access-token-<traveler id>` (start-test-bff.ts).
      const travelerId = /^Bearer access-token-(.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (this.unansweredStreamsOf.has(travelerId)) return;
      if (this.refuseStreams.remaining > 0) {
        this.refuseStreams.remaining -= 1;
        const status = this.refuseStreams.status;
        return sendJson(
          res,
          status,
          errorEnvelope(status === 401 ? 'UNAUTHORIZED' : 'SERVICE_UNAVAILABLE', { message: 'refused' }),
        );
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      this.notificationStreams.add(res);
      let streams = this.#streamsByTraveler.get(travelerId);
      if (streams === undefined) {
        streams = new Set();
        this.#streamsByTraveler.set(travelerId, streams);
      }
      streams.add(res);
      const heartbeats =
        this.heartbeatMs === undefined
          ? undefined
          : setInterval(() => res.write(HEARTBEAT), this.heartbeatMs);
      res.once('close', () => {
        clearInterval(heartbeats);
        this.notificationStreams.delete(res);
        streams.delete(res);
        if (streams.size === 0) this.#streamsByTraveler.delete(travelerId);
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v1/me/notifications') {
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const before = url.searchParams.get('before');
      const newestFirst = [...this.persisted].reverse();
      const start = before === null ? 0 : newestFirst.findIndex((item) => item.id === before) + 1;
      const items = newestFirst.slice(start, start + limit);
      const nextCursor = start + limit < newestFirst.length ? (items.at(-1)?.id ?? null) : null;
      return sendJson(res, 200, {
        items,
        meta: { totalCount: newestFirst.length, pageSize: limit, nextCursor, unreadCount: 0 },
      });
    }
    sendJson(res, 404, errorEnvelope('RESOURCE_NOT_FOUND', { message: 'No such route' }));
  }
}

/** Answers a stays call with an open event stream, as the travel API does before its first event. */
export function openUpstreamStream(call: StaysCall): void {
  call.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  call.res.flushHeaders();
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const HEARTBEAT = Buffer.from(encodeSseComment('heartbeat'), 'utf8');

/** A notification event as the service streams it; `traced`: with the `traceparent` of a new trace. */
function notificationEvent(notification: Notification, traced = false): Buffer {
  const traceparent = traced
    ? `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`
    : undefined;
  return Buffer.from(encodeSseEvent({ event: 'notification', data: notification, traceparent }), 'utf8');
}
