import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { signRequest, signedHeaders } from '#shared/upstream/sign-request.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import {
  startTravelApi,
  TEST_ADMIN_TOKEN,
  TEST_CONSUMER,
  type RunningTravelApi,
} from '../test-support/start-travel-api.ts';

const CONSUMER_AUTH_REQUIRED = {
  error: {
    code: 'CONSUMER_AUTH_REQUIRED',
    message: 'Consumer authentication required',
    details: [],
    recoveryAction: 'CONTACT_SUPPORT',
    retryAfterSeconds: null,
  },
};
const UPDATE_CHECK = '/v1/app/update-check';

let api: RunningTravelApi;
beforeAll(async () => {
  api = await startTravelApi();
});
afterAll(() => api.close());
afterEach(async () => {
  await fetch(`${api.baseUrl}/admin/faults`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
});

async function expectConsumerAuthRequired(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual(CONSUMER_AUTH_REQUIRED);
}

/** Signing headers of a POST whose body the test streams itself (signed as empty). */
function signedEmptyPost(path: string): Record<string, string> {
  return {
    ...signedHeaders({
      consumer: TEST_CONSUMER.slug,
      secret: TEST_CONSUMER.secret,
      method: 'POST',
      path,
      body: '',
    }),
  };
}

interface UploadAnswer {
  status: number;
  body: string;
  /** The error writing the body hit, when the server cut the connection under it. */
  uploadError: string | undefined;
}

/**
 * A raw client that declares `size` bytes, sends them 1 MiB at a time with a pause after each (a slow
 * uploader), and only then reads the answer until the server has sent all of it (its Content-Length)
 * or closed the connection. At most 30 s.
 */
function uploadSlowly(
  baseUrl: string,
  path: string,
  size: number,
  { pauseMs = 10, readWhileUploading = false } = {},
): Promise<UploadAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    let uploadError: string | undefined;
    let uploaded = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no complete answer within 30 s'));
    }, 30_000);
    const settle = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body, uploadError });
    };
    const answerComplete = (): boolean => {
      const text = Buffer.concat(received).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1];
      return end >= 0 && length !== undefined && Buffer.byteLength(text.slice(end + 4)) >= Number(length);
    };
    // Unless told otherwise, reading starts once the upload is over, as a client that sends the whole request first.
    if (!readWhileUploading) socket.pause();
    socket.on('data', (data: Buffer) => {
      received.push(data);
      if (answerComplete()) settle();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!uploaded) uploadError ??= error.code ?? error.message;
      settle();
    });
    socket.on('end', settle);
    const upload = async (): Promise<void> => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: ${hostname}`,
        ...Object.entries(signedEmptyPost(path)).map(([name, value]) => `${name}: ${value}`),
        'Content-Type: application/json',
        `Content-Length: ${size}`,
        '',
        '',
      ].join('\r\n');
      try {
        await write(socket, head);
        for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
          await write(socket, chunk.subarray(0, Math.min(chunk.length, size - sent)));
          await sleep(pauseMs);
        }
      } catch (error) {
        uploadError ??= (error as NodeJS.ErrnoException).code ?? String(error);
      }
      uploaded = true;
      socket.resume();
      if (socket.destroyed) settle();
    };
    socket.once('connect', () => void upload());
  });
}

function write(socket: net.Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) {
      reject(new Error('socket closed'));
      return;
    }
    socket.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

function unixSeconds(offsetSeconds = 0): string {
  return String(Math.floor(Date.now() / 1000) + offsetSeconds);
}

describe('consumer signature on every /v1 request', () => {
  it('accepts a request signed with the registered consumer secret', async () => {
    const response = await signedFetch(api.baseUrl, { path: UPDATE_CHECK });
    expect(response.status).toBe(200);
  });

  it('rejects a request without the signing headers with the exact CONSUMER_AUTH_REQUIRED envelope', async () => {
    await expectConsumerAuthRequired(await fetch(`${api.baseUrl}${UPDATE_CHECK}`));
  });

  it.each(['service-consumer', 'service-timestamp', 'service-signature'])(
    'rejects a request missing %s',
    async (header) => {
      const headers: Record<string, string> = Object.fromEntries(
        Object.entries(
          signedHeaders({
            ...TEST_CONSUMER,
            consumer: TEST_CONSUMER.slug,
            method: 'GET',
            path: UPDATE_CHECK,
            body: undefined,
          }),
        ).map(([name, value]) => [name.toLowerCase(), value]),
      );
      delete headers[header];
      await expectConsumerAuthRequired(
        await fetch(`${api.baseUrl}${UPDATE_CHECK}`, { headers: { ...headers } }),
      );
    },
  );

  it('rejects a forged signature', async () => {
    await expectConsumerAuthRequired(
      await signedFetch(api.baseUrl, { path: UPDATE_CHECK, secret: 'not-the-secret-of-this-consumer-01' }),
    );
  });

  it('rejects a malformed timestamp or signature', async () => {
    const timestamp = '1.7e9';
    const signature = signRequest({
      method: 'GET',
      path: UPDATE_CHECK,
      timestamp,
      body: '',
      secret: TEST_CONSUMER.secret,
    });
    await expectConsumerAuthRequired(
      await fetch(`${api.baseUrl}${UPDATE_CHECK}`, {
        headers: {
          'service-consumer': TEST_CONSUMER.slug,
          'service-timestamp': timestamp,
          'service-signature': signature,
        },
      }),
    );
    await expectConsumerAuthRequired(
      await fetch(`${api.baseUrl}${UPDATE_CHECK}`, {
        headers: {
          'service-consumer': TEST_CONSUMER.slug,
          'service-timestamp': unixSeconds(),
          'service-signature': 'XYZ',
        },
      }),
    );
  });

  it('answers an unknown consumer exactly as a bad signature', async () => {
    const unknown = await signedFetch(api.baseUrl, { path: UPDATE_CHECK, consumer: 'no-such-consumer' });
    const forged = await signedFetch(api.baseUrl, {
      path: UPDATE_CHECK,
      secret: 'not-the-secret-of-this-consumer-01',
    });
    expect(unknown.status).toBe(forged.status);
    expect(await unknown.text()).toBe(await forged.text());
  });

  it('accepts timestamps up to 300 s off in either direction and rejects staler ones', async () => {
    const now = Date.now();
    for (const offset of [-290, 290]) {
      const response = await signedFetch(api.baseUrl, {
        path: UPDATE_CHECK,
        now: new Date(now + offset * 1000),
      });
      expect(response.status, `offset ${offset}`).toBe(200);
    }
    for (const offset of [-310, 310]) {
      await expectConsumerAuthRequired(
        await signedFetch(api.baseUrl, { path: UPDATE_CHECK, now: new Date(now + offset * 1000) }),
      );
    }
  });

  it('hashes the body bytes actually sent: a signature over other bytes fails', async () => {
    const sent = '{"a":1}';
    const headers = signedHeaders({
      consumer: TEST_CONSUMER.slug,
      secret: TEST_CONSUMER.secret,
      method: 'POST',
      path: '/v1/guest-sessions',
      body: '{"a": 1}',
    });
    await expectConsumerAuthRequired(
      await fetch(`${api.baseUrl}/v1/guest-sessions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: sent,
      }),
    );
    const good = await signedFetch(api.baseUrl, {
      method: 'POST',
      path: '/v1/guest-sessions',
      body: sent,
      headers: { 'content-type': 'application/json' },
    });
    expect(good.status).toBe(201);
  });

  it('does not sign the query string: a signature for one query verifies for another', async () => {
    const headers = signedHeaders({
      consumer: TEST_CONSUMER.slug,
      secret: TEST_CONSUMER.secret,
      method: 'GET',
      path: UPDATE_CHECK,
      body: undefined,
    });
    const response = await fetch(`${api.baseUrl}${UPDATE_CHECK}?currentVersion=0.1.0`, {
      headers: { ...headers },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ updateAvailable: true });
  });

  it('has no nonce: an identical request is accepted again inside the window', async () => {
    const headers = signedHeaders({
      consumer: TEST_CONSUMER.slug,
      secret: TEST_CONSUMER.secret,
      method: 'GET',
      path: UPDATE_CHECK,
      body: undefined,
    });
    expect((await fetch(`${api.baseUrl}${UPDATE_CHECK}`, { headers: { ...headers } })).status).toBe(200);
    expect((await fetch(`${api.baseUrl}${UPDATE_CHECK}`, { headers: { ...headers } })).status).toBe(200);
  });

  it('checks the signature before the route exists: an unsigned unknown /v1 path is 401, a signed one 404', async () => {
    await expectConsumerAuthRequired(await fetch(`${api.baseUrl}/v1/no-such-operation`));
    const response = await signedFetch(api.baseUrl, { path: '/v1/no-such-operation' });
    expect(response.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('rejects a body declared larger than 16 MiB before reading any of it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${api.baseUrl}/v1/guest-sessions`, {
        method: 'POST',
        headers: {
          ...signedEmptyPost('/v1/guest-sessions'),
          'content-type': 'application/json',
          'content-length': String(16 * 1024 * 1024 + 1),
        },
      });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        request.destroy();
      });
      request.on('error', reject);
      request.write('{');
    });
    expect(status).toBe(401);
  });

  it('rejects a streamed body once it passes 16 MiB, without buffering the rest', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${api.baseUrl}/v1/guest-sessions`, {
        method: 'POST',
        headers: {
          ...signedEmptyPost('/v1/guest-sessions'),
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      });
      let answered = false;
      request.on('response', (response) => {
        answered = true;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (text: string) => (body += text));
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      request.on('error', (error) => (answered ? undefined : reject(error)));
      const pump = (): void => {
        while (!answered && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!request.write(chunk)) {
            request.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body)).toEqual(CONSUMER_AUTH_REQUIRED);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('lets a client still uploading 17 MiB read its 401: the rest of the body is drained, not reset', async () => {
    // The spec, Authentication: "A request body larger than 16 MiB is rejected in the same way." (as a bad
    // signature: 401 CONSUMER_AUTH_REQUIRED). A client that sends its whole body before reading (RFC 9112
    // section 9.6) reads that answer only if the server does not close the connection under the upload.
    for (let run = 0; run < 4; run += 1) {
      const answer = await uploadSlowly(api.baseUrl, '/v1/guest-sessions', 17 * 1024 * 1024);
      expect(answer.status, `run ${run}`).toBe(401);
      expect(JSON.parse(answer.body), `run ${run}`).toEqual(CONSUMER_AUTH_REQUIRED);
      expect(answer.uploadError, `run ${run}`).toBeUndefined();
    }
  });

  it('stops reading a body far over the limit after 16 MiB more, the 401 sent and the connection then closed', async () => {
    const answer = await uploadSlowly(api.baseUrl, '/v1/guest-sessions', 1024 * 1024 * 1024, {
      pauseMs: 0,
      readWhileUploading: true,
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual(CONSUMER_AUTH_REQUIRED);
  });

  it('answers 503 SERVICE_UNAVAILABLE with RETRY_LATER when the consumer registry cannot be read', async () => {
    await fetch(`${api.baseUrl}/admin/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ registryReadFailure: true }),
    });
    const response = await signedFetch(api.baseUrl, { path: UPDATE_CHECK });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' },
    });
  });
});

describe('secret rotation', () => {
  let rotating: RunningTravelApi;
  beforeAll(async () => {
    rotating = await startTravelApi();
  });
  afterAll(() => rotating.close());

  async function rotateByCommand(): Promise<string> {
    const script = path.join(import.meta.dirname, '..', 'scripts', 'rotate-secret.ts');
    const { stdout } = await promisify(execFile)(process.execPath, [script, TEST_CONSUMER.slug], {
      env: {
        ...process.env,
        TRAVEL_API_DATA_DIR: rotating.dataDir,
        TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: TEST_CONSUMER.slug,
        TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: TEST_CONSUMER.secret,
      },
    });
    const secret = stdout.split('\n')[1]?.trim() ?? '';
    expect(secret).toMatch(/^[\w-]{40,}$/);
    expect(stdout.split(secret).length - 1).toBe(1);
    return secret;
  }

  async function setRotatedAt(hoursAgo: number): Promise<void> {
    const file = rotating.config.TRAVEL_API_CONSUMER_REGISTRY_FILE;
    const registry = JSON.parse(await readFile(file, 'utf8')) as {
      consumers: { previous: { rotatedAt: string } | null }[];
    };
    for (const consumer of registry.consumers) {
      if (consumer.previous)
        consumer.previous.rotatedAt = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    }
    await writeFile(file, JSON.stringify(registry));
  }

  it('the rotate command prints a new secret once; new and previous secrets both verify for 24 hours', async () => {
    const newSecret = await rotateByCommand();
    expect((await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: newSecret })).status).toBe(200);
    expect(
      (await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: TEST_CONSUMER.secret })).status,
    ).toBe(200);

    await setRotatedAt(23.9);
    expect(
      (await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: TEST_CONSUMER.secret })).status,
    ).toBe(200);
    await setRotatedAt(24);
    await expectConsumerAuthRequired(
      await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: TEST_CONSUMER.secret }),
    );
    expect((await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: newSecret })).status).toBe(200);
  });

  it('ends the window 24 hours after the rotation whether or not another rotation occurred', async () => {
    const first = await rotateByCommand();
    await setRotatedAt(10);
    const second = await rotateByCommand();
    expect((await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: second })).status).toBe(200);
    expect((await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: first })).status).toBe(200);
    const registry = JSON.parse(
      await readFile(rotating.config.TRAVEL_API_CONSUMER_REGISTRY_FILE, 'utf8'),
    ) as {
      consumers: { previous: { rotatedAt: string } }[];
    };
    const windowEnds = Date.parse(registry.consumers[0]?.previous.rotatedAt ?? '') + 24 * 3_600_000;
    expect(windowEnds - Date.now()).toBeLessThan(14.1 * 3_600_000);
    await setRotatedAt(24);
    await expectConsumerAuthRequired(
      await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK, secret: first }),
    );
  });

  it('answers 503 RETRY_LATER when the registry file is unreadable', async () => {
    await writeFile(rotating.config.TRAVEL_API_CONSUMER_REGISTRY_FILE, '{ not json');
    const response = await signedFetch(rotating.baseUrl, { path: UPDATE_CHECK });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' },
    });
  });
});
