import { createServer, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisServerProcess, waitFor } from '../test-support/redis-server-process.ts';
import { createRedisClient, createSubscriberClient, waitForRedis } from './redis-client.ts';

const NAME = 'wayfare-race';

/** One RESP bulk string. */
function bulk(value: string): string {
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

/** Reads the RESP arrays of bulk strings a client sends (the form ioredis writes its commands in). */
function commandsOf(socket: Socket, onCommand: (args: string[]) => void): void {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (;;) {
      const args: string[] = [];
      const header = /^\*(\d+)\r\n/.exec(buffer);
      if (header === null) return;
      let offset = header[0].length;
      let complete = true;
      for (let index = 0; index < Number(header[1]); index += 1) {
        const length = /^\$(\d+)\r\n/.exec(buffer.slice(offset));
        const start = offset + (length?.[0].length ?? 0);
        if (length === null || buffer.length < start + Number(length[1]) + 2) {
          complete = false;
          break;
        }
        args.push(buffer.slice(start, start + Number(length[1])));
        offset = start + Number(length[1]) + 2;
      }
      if (!complete) return;
      buffer = buffer.slice(offset);
      onCommand(args);
    }
  });
}

/**
 * A Sentinel the test scripts: it names the primary it is told to, can hold its answer to "which is the
 * primary?" (a Sentinel that is slow to answer while it elects a leader), and announces a failover
 * (`+switch-master`) to the connections subscribed to it, as a real Sentinel does at the end of one.
 */
class ScriptedSentinel {
  primaryPort = 0;
  readonly #server: Server;
  readonly #subscribers = new Set<Socket>();
  readonly #sockets = new Set<Socket>();
  #held: (() => void)[] | undefined;
  /** Questions "which is the primary?" answered or held so far. */
  asked = 0;

  constructor() {
    this.#server = createServer((socket) => {
      this.#sockets.add(socket);
      socket.on('end', () => this.#subscribers.delete(socket));
      socket.on('close', () => {
        this.#sockets.delete(socket);
        this.#subscribers.delete(socket);
      });
      socket.on('error', () => undefined);
      commandsOf(socket, (args) => this.#answer(socket, args));
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return (this.#server.address() as { port: number }).port;
  }

  /** From now on, answers to "which is the primary?" wait for release(). */
  hold(): void {
    this.#held = [];
  }

  release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const answer of held) answer();
  }

  announceFailover(oldPort: number, newPort: number): void {
    const payload = `${NAME} 127.0.0.1 ${oldPort} 127.0.0.1 ${newPort}`;
    for (const socket of this.#subscribers) {
      socket.write(`>3\r\n${bulk('message')}${bulk('+switch-master')}${bulk(payload)}`);
    }
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #answer(socket: Socket, [command = '', ...args]: string[]): void {
    const verb = command.toLowerCase();
    if (verb === 'sentinel' && args[0]?.toLowerCase() === 'get-master-addr-by-name') {
      this.asked += 1;
      const answer = () => socket.write(`*2\r\n${bulk('127.0.0.1')}${bulk(String(this.primaryPort))}`);
      if (this.#held === undefined) answer();
      else this.#held.push(answer);
    } else if (verb === 'sentinel' && args[0]?.toLowerCase() === 'sentinels') {
      socket.write('*0\r\n');
    } else if (verb === 'hello') {
      // RESP3, as ioredis asks for: pub/sub messages come as pushes.
      socket.write(`%1\r\n${bulk('proto')}:3\r\n`);
    } else if (verb === 'subscribe') {
      this.#subscribers.add(socket);
      args.forEach((channel, index) =>
        socket.write(`>3\r\n${bulk('subscribe')}${bulk(channel)}:${index + 1}\r\n`),
      );
    } else {
      socket.write('+OK\r\n');
    }
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a Redis client through Sentinel', () => {
  it('reaches the new primary when the failover is announced while it is asking a Sentinel for the primary', async () => {
    const [first, second] = [await RedisServerProcess.start(), await RedisServerProcess.start()];
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    const sentinel = new ScriptedSentinel();
    const sentinelPort = await sentinel.listen();
    cleanups.push(() => sentinel.close());
    sentinel.primaryPort = first.port;

    const logger = pino({ level: 'silent' });
    const client = createRedisClient({
      sentinel: { sentinels: [{ host: '127.0.0.1', port: sentinelPort }], name: NAME, tls: false },
      logger,
      commandTimeoutMs: 2_000,
    });
    const subscriber = createSubscriberClient(client, logger);
    const clients: Redis[] = [client, subscriber];
    cleanups.push(async () => {
      for (const each of clients) each.disconnect();
    });
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    expect(await waitForRedis(client, 10_000)).toBe(true);
    await subscriber.subscribe('wayfare:race');
    await client.set('wayfare:race', 'before');
    // Each connection watches the Sentinel for a failover.
    await waitFor(() => sentinel.subscribers === 2, 'both connections watching for a failover');

    // The primary goes; the clients reconnect and ask the Sentinel which is the primary, and the Sentinel,
    // busy with the failover, answers only after it announced the new primary.
    sentinel.hold();
    const asked = sentinel.asked;
    await first.stop();
    await waitFor(() => sentinel.asked >= asked + 2, 'both connections asking for the primary');
    sentinel.primaryPort = second.port;
    sentinel.announceFailover(first.port, second.port);
    await new Promise((resolve) => setImmediate(resolve));
    sentinel.release();

    // Commands reach the new primary, and the subscription moved with it.
    await waitFor(
      () => client.set('wayfare:race', 'after').then((reply) => reply === 'OK'),
      'a write to the new primary',
    );
    await waitFor(async () => {
      await client.publish('wayfare:race', 'after the failover');
      return heard.includes('after the failover');
    }, 'a message heard on the new primary');
    const look = second.client();
    cleanups.push(async () => look.disconnect());
    expect(await look.get('wayfare:race')).toBe('after');
  }, 30_000);
});
