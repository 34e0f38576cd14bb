import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CONSUMER_AUTH_REQUIRED_ENVELOPE } from '#shared/upstream/error-envelope.ts';
import { verifySignature } from '#shared/upstream/verify-signature.ts';
import { ServiceError } from '../service-error.ts';
import { ConsumerRegistry, RegistryUnavailableError } from '../consumer-registry.ts';
import { routePath } from '#shared/route-path.ts';

/** The spec's request body limit; larger bodies are rejected like a bad signature. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    consumers: ConsumerRegistry;
  }
  interface FastifyRequest {
    /** The verified consumer slug of a /v1 request. */
    consumer: string | undefined;
  }
}

/**
 * The consumer signature, checked for every /v1 request before anything else reads it: this hook reads the
 * raw body itself (never past 16 MiB), verifies the signature over exactly those bytes, and hands the same
 * bytes on to the JSON parser.
 */
function consumerSignature(app: FastifyInstance, _options: unknown, done: () => void): void {
  const config = app.travelConfig;
  const registry = new ConsumerRegistry(config.TRAVEL_API_CONSUMER_REGISTRY_FILE, {
    failReads: () => app.faults.current.registryReadFailure,
  });
  registry.ensureConsumer(
    config.TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG,
    config.TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET,
  );
  app.decorate('consumers', registry);
  app.decorateRequest('consumer', undefined);

  app.addHook('preParsing', async (request, reply, payload) => {
    if (!isV1Request(request)) return payload;
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > MAX_BODY_BYTES) {
      discardRest(request, reply, payload);
      throw consumerAuthRequired();
    }
    const body = await readBody(payload, MAX_BODY_BYTES);
    if (body === 'too-large') {
      discardRest(request, reply, payload);
      throw consumerAuthRequired();
    }
    const slug = singleHeader(request, 'service-consumer');
    let secrets;
    try {
      secrets = slug === undefined ? undefined : await registry.secretsFor(slug);
    } catch (error) {
      if (!(error instanceof RegistryUnavailableError)) throw error;
      request.log.error({ err: error }, 'consumer registry unavailable');
      throw new ServiceError('SERVICE_UNAVAILABLE', {
        message: 'The service is temporarily unavailable',
        recoveryAction: 'RETRY_LATER',
        retryAfterSeconds: 5,
      });
    }
    const result = verifySignature({
      headers: {
        consumer: slug,
        timestamp: singleHeader(request, 'service-timestamp'),
        signature: singleHeader(request, 'service-signature'),
      },
      method: request.method,
      path: request.url,
      body,
      secrets,
      skewSeconds: config.TRAVEL_API_SIGNATURE_SKEW_SECONDS,
    });
    if (!result.ok) throw consumerAuthRequired();
    request.consumer = slug;
    return replay(body);
  });
  done();
}

function consumerAuthRequired(): ServiceError {
  return ServiceError.fromEnvelope(401, CONSUMER_AUTH_REQUIRED_ENVELOPE);
}

export function isV1(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
}

/**
 * Whether a request is a /v1 call: its matched route is one (whatever spelling reached it, `/%761/...`
 * included), or, for a path no route matches, its decoded path is under /v1 (a signature is still checked
 * before the 404, so an unsigned caller learns nothing of which routes exist).
 */
export function isV1Request(request: FastifyRequest): boolean {
  return isV1(routePath(request)) || isV1(request.url);
}

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * How much of a body over the limit is still read (and dropped) after the 401, and for how long, so that a
 * client sending its whole body before it reads the answer gets to read it.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;
export const DISCARD_TIMEOUT_MS = 30_000;
/** How long a connection half-closed after a 401 stays open for the client to read it. */
const LINGER_MS = 2_000;

/**
 * Reads the rest of a body over the limit and drops it, so the 401 reaches a client that is still
 * uploading instead of a reset connection (RFC 9112 section 9.6): when the body ends in time the connection
 * stays usable. Past DISCARD_LIMIT_BYTES or DISCARD_TIMEOUT_MS, an HTTP/1.1 connection is half-closed
 * once the answer is out (the client still reads it) and closed LINGER_MS later; an HTTP/2 request's
 * stream is closed.
 */
function discardRest(request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream): void {
  let discarded = 0;
  const onData = (chunk: Buffer | string): void => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) stop();
  };
  const settle = (): void => {
    clearTimeout(timer);
    payload.removeListener('data', onData);
  };
  const stop = (): void => {
    settle();
    if (request.raw.httpVersionMajor >= 2) {
      request.raw.destroy();
      return;
    }
    const { socket } = request.raw;
    const halfClose = (): void => {
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    if (reply.raw.writableFinished) halfClose();
    else reply.raw.once('finish', halfClose);
  };
  const timer = setTimeout(stop, DISCARD_TIMEOUT_MS).unref();
  payload.on('data', onData);
  payload.once('end', settle);
  payload.once('error', settle);
  payload.resume();
}

/** Reads a stream to its end, or gives up keeping its bytes as soon as it exceeds `limit` bytes. */
function readBody(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

function replay(body: Buffer): Readable & { receivedEncodedLength: number } {
  return Object.assign(Readable.from(body.length === 0 ? [] : [body]), {
    receivedEncodedLength: body.length,
  });
}

export default fp(consumerSignature, { name: 'consumer-signature', dependencies: ['faults'] });
