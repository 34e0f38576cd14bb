import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** JSON and text answers; never an event stream, whose events must reach the browser one by one. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[/+]json(?:;|$)/;

/**
 * Compresses the answers the server writes per request (JSON above a kilobyte) with the best encoding
 * the browser accepts, Brotli at its fast level or gzip, with `Vary: Accept-Encoding`. The built SPA's
 * files are compressed at build time and sent as they are (web-app.ts); streams are written straight
 * to the socket (bff/streams/) and never pass through here. Request bodies are never inflated: the
 * body limit counts the bytes as sent.
 */
async function compressionPlugin(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
  });
}

export const compression = fp(compressionPlugin, { name: 'compression', fastify: '5.x' });
export default compression;
