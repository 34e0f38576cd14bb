import Fastify, { type FastifyInstance } from 'fastify';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import acceptDrain from './accept-drain.ts';
import serviceErrorHandler from './service-error-handler.ts';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server with the stand-in's closing behaviour: 503 RETRY_LATER once closing began, then the drain. */
async function closingServer(): Promise<{ app: FastifyInstance; port: number }> {
  const server = Fastify({ return503OnClosing: false });
  await server.register(serviceErrorHandler);
  server.get('/ping', () => ({ ok: true }));
  await server.register(acceptDrain);
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app: server, port: address.port };
}

/** Everything the socket receives until the server ends it, or the error that cut it. */
function received(socket: Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${text}<${error.code ?? 'error'}>`));
    socket.once('close', () => resolve(text));
  });
}

describe('closing the stand-in', () => {
  it('answers a connection that arrives once closing began with 503 RETRY_LATER, instead of resetting it', async () => {
    const server = await closingServer();
    app = server.app;
    const closed = server.app.close();
    // The listener is still open: the drain waits for it to go quiet.
    const socket = connect(server.port, '127.0.0.1');
    const answer = received(socket);
    await once(socket, 'connect');
    socket.write('GET /ping HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n');
    const text = await answer;
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toContain('"recoveryAction":"RETRY_LATER"');
  });

  it('answers a request that arrives on a connection made before closing, however late', async () => {
    const server = await closingServer();
    app = server.app;
    const accepted = once(server.app.server, 'connection');
    const socket = connect(server.port, '127.0.0.1');
    const answer = received(socket);
    await accepted;
    const closed = server.app.close();
    // The client's process was slow to write: its request comes after the listener has gone quiet and closed.
    while (server.app.server.listening) await sleep(10);
    socket.write('GET /ping HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n');
    const text = await answer;
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
  });
});
