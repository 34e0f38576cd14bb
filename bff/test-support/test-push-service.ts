import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  subscriptionId: string;
  headers: IncomingHttpHeaders;
  /** The decrypted payload, parsed as JSON. */
  payload: unknown;
}

interface Subscriber {
  ecdh: ECDH;
  publicKey: Buffer;
  authSecret: Buffer;
}

/**
 * A Web Push service on loopback for tests. It mints subscriptions with fresh P-256 keys and auth
 * secrets (as a browser does), accepts messages at their endpoints and decrypts them (RFC 8291,
 * aes128gcm), so a test can assert what the traveler's device would show.
 */
export class TestPushService {
  readonly received: ReceivedPush[] = [];
  /** Status the next messages are answered with, one per message; 201 when empty. */
  readonly nextStatuses: number[] = [];
  readonly #subscribers = new Map<string, Subscriber>();
  readonly #holds: { arrived: () => void; released: Promise<void> }[] = [];
  readonly #server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hold = this.#holds.shift();
      hold?.arrived();
      void (hold?.released ?? Promise.resolve()).then(() => this.#answer(req, chunks, res));
    });
  });
  url = '';

  #answer(req: IncomingMessage, chunks: Buffer[], res: ServerResponse): void {
    const status = this.nextStatuses.shift() ?? 201;
    const subscriptionId = (req.url ?? '').replace(/^\/push\//, '');
    const subscriber = this.#subscribers.get(subscriptionId);
    if (status === 201 && subscriber) {
      const plaintext = decryptAes128gcm(Buffer.concat(chunks), subscriber);
      this.received.push({
        subscriptionId,
        headers: req.headers,
        payload: JSON.parse(plaintext.toString('utf8')),
      });
    }
    res.writeHead(subscriber ? status : 404).end();
  }

  /**
   * The BFF settings that let it store and send to this push service: its origin allowed, and loopback
   * allowed (a development setting).
   */
  get bffEnv(): Record<string, string> {
    return { PUSH_ENDPOINT_ORIGINS: this.url, PUSH_ENDPOINT_ALLOW_LOOPBACK: 'true' };
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  /**
   * Holds the next message until `release()`, as a slow push service would: `arrived` settles once the
   * message is in, unanswered.
   */
  holdNext(): { arrived: Promise<void>; release: () => void } {
    const arrived = Promise.withResolvers<void>();
    const released = Promise.withResolvers<void>();
    this.#holds.push({ arrived: arrived.resolve, released: released.promise });
    return { arrived: arrived.promise, release: released.resolve };
  }

  /** A PushSubscription as the browser's toJSON() gives it. */
  subscribe(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } } {
    const id = randomBytes(12).toString('base64url');
    const ecdh = createECDH('prime256v1');
    const publicKey = ecdh.generateKeys();
    const authSecret = randomBytes(16);
    this.#subscribers.set(id, { ecdh, publicKey, authSecret });
    return {
      endpoint: `${this.url}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') },
    };
  }
}

/** RFC 8291 message decryption with the RFC 8188 aes128gcm content coding (one record). */
function decryptAes128gcm(body: Buffer, subscriber: Subscriber): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = subscriber.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.publicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, subscriber.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('The last record does not end with the 0x02 delimiter');
  return padded.subarray(0, end);
}
