import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeSseComment, encodeSseEvent, readSseStream } from '#shared/sse.ts';
import type { SseCloseReason, SseConnection } from './sse-connection.ts';
import { SseRegistry } from './sse-registry.ts';
import { BrowserStream } from '../test-support/browser-stream.ts';

let server: Server | undefined;
let registry: SseRegistry | undefined;

afterEach(async () => {
  registry?.closeAll();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** An HTTP server whose every request becomes one registered SSE stream. */
async function serve(
  options: { heartbeatMs?: number; maxBufferedBytes?: number; drainTimeoutMs?: number },
  onStream: (connection: SseConnection) => void,
): Promise<string> {
  registry = new SseRegistry({
    heartbeatMs: options.heartbeatMs ?? 60_000,
    heartbeat: encodeSseComment('heartbeat'),
    maxBufferedBytes: options.maxBufferedBytes ?? 64 * 1024,
    drainTimeoutMs: options.drainTimeoutMs ?? 5_000,
  });
  const current = registry;
  server = createServer((_req, res: ServerResponse) => {
    const connection = current.connect(res, encodeSseEvent({ event: 'reconnect', retry: 1000, data: {} }));
    connection.open();
    onStream(connection);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('SseRegistry and SseConnection', () => {
  it('sends heartbeat comments to every open stream from one timer, each stream once per interval', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const url = await serve({ heartbeatMs: 200 }, () => undefined);
      const streams = await Promise.all(Array.from({ length: 12 }, () => fetch(url)));
      expect(registry?.size).toBe(12);
      // One timer for every stream, none per stream.
      expect(vi.getTimerCount()).toBe(1);
      const comments = streams.map(() => [] as string[]);
      let heard = Promise.withResolvers<void>();
      const readings = streams.map(async (response, index) => {
        for await (const _ of readSseStream(response.body as ReadableStream<Uint8Array>, {
          onComment: (comment) => {
            comments[index]?.push(comment);
            heard.resolve();
          },
        }));
      });
      for (const intervals of [1, 2, 3]) {
        await vi.advanceTimersByTimeAsync(200);
        while (!comments.every((received) => received.length >= intervals)) {
          await heard.promise;
          heard = Promise.withResolvers<void>();
        }
        // Each stream had one heartbeat per interval, not one per tick of the timer (a tenth of it).
        expect(comments.map((received) => received.length)).toEqual(streams.map(() => intervals));
      }
      expect(comments.flat().every((comment) => comment.trim() === 'heartbeat')).toBe(true);
      registry?.closeAll();
      await Promise.all(readings);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cuts off a reader that stops reading once its unsent bytes pass the bound', async () => {
    let closedBecause: SseCloseReason | undefined;
    const chunk = encodeSseEvent({ event: 'filler', data: 'x'.repeat(16 * 1024) });
    const url = await serve({ maxBufferedBytes: 256 * 1024 }, (connection) => {
      connection.onClose((reason) => (closedBecause = reason));
      const pump = () => {
        for (let i = 0; i < 64 && connection.write(chunk); i += 1);
        if (!connection.closed) setTimeout(pump, 1);
      };
      pump();
    });
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    socket.pause();
    await expect.poll(() => closedBecause).toBeDefined();
    expect(closedBecause).toBe('slow-consumer');
    expect(registry?.size).toBe(0);
    expect(registry?.slowConsumerCutOffs).toBe(1);
    socket.destroy();
  });

  it('frames events as HTTP/1.1 chunks, and as plain bytes for an HTTP/1.0 client', async () => {
    const event = encodeSseEvent({ event: 'hello', data: { city: 'Zürich' } });
    const url = await serve({}, (connection) => connection.end(event));
    const { port } = new URL(url);
    /** The response body as sent on the wire, read until the server ends the response. */
    const raw = async (version: string, complete: (body: string) => boolean) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(`GET / ${version}\r\nHost: localhost\r\n\r\n`);
      let text = '';
      for await (const chunk of socket) {
        text += (chunk as Buffer).toString('utf8');
        if (text.includes('\r\n\r\n') && complete(text.slice(text.indexOf('\r\n\r\n') + 4))) break;
      }
      socket.destroy();
      return text.slice(text.indexOf('\r\n\r\n') + 4);
    };
    const size = Buffer.byteLength(event).toString(16);
    const chunked = await raw('HTTP/1.1', (body) => body.endsWith('0\r\n\r\n'));
    expect(chunked).toBe(`${size}\r\n${event}\r\n0\r\n\r\n`);
    // HTTP/1.0 has no chunks: the body is the event's bytes and the server closes the connection.
    expect(await raw('HTTP/1.0', () => false)).toBe(event);
  });

  it('ends every stream with its farewell on shutdown', async () => {
    const url = await serve({}, () => undefined);
    const tabs = await Promise.all([BrowserStream.open(url), BrowserStream.open(url)]);
    await expect.poll(() => registry?.size).toBe(2);
    registry?.closeAll();
    await Promise.all(tabs.map((tab) => tab.ended));
    for (const tab of tabs) expect(tab.named('reconnect')).toHaveLength(1);
    expect(registry?.closing).toBe(true);
  });
});
