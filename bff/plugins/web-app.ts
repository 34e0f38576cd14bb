import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError } from '../config.ts';
import { routeNotFound } from './error-handler.ts';
import { routePath } from '#shared/route-path.ts';

/** Paths that belong to the server: an unknown one is a 404 envelope, never the SPA. */
const SERVER_PREFIXES = ['/api', '/auth', '/webhooks', '/healthz', '/readyz', '/calendar'];
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function isServerPath(pathname: string): boolean {
  return SERVER_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Hashed build output lives under /assets/ and never changes under its name; everything else may. */
export function cacheControlFor(relativePath: string): string {
  return relativePath.split(path.sep).join('/').startsWith('assets/') ? IMMUTABLE : 'no-cache';
}

/**
 * Serves the built SPA (WEB_DIST_DIR) when it has been built, and requires it in production: each text
 * file in the encoding the browser prefers among those built beside it (Brotli, gzip, none), hashed
 * assets immutable, index.html and the service worker revalidated on every load, and index.html for
 * any other GET that is not a server path or a missing file (client-side routes).
 */
async function webAppPlugin(app: FastifyInstance): Promise<void> {
  const root = path.resolve(app.config.WEB_DIST_DIR);
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    if (app.config.NODE_ENV === 'production') {
      throw new ConfigError(`WEB_DIST_DIR has no index.html (${root}); run npm run build first`);
    }
    app.log.info({ webDistDir: root }, 'no built SPA to serve; the Vite dev server serves it in development');
    return;
  }

  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    // The build writes a Brotli (.br) and a gzip (.gz) copy of every text file: the best one the browser
    // accepts is sent, with Vary: Accept-Encoding; the copies are never addresses of their own.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(path.relative(root, filePath)));
    },
  });

  const serveIndex = (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = routePath(request);
    if (isServerPath(pathname) || path.posix.extname(pathname) !== '') throw routeNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false });
  };
  app.get('/*', { schema: { hide: true } }, serveIndex);
}

export const webApp = fp(webAppPlugin, {
  name: 'web-app',
  fastify: '5.x',
  decorators: { fastify: ['config'] },
});
export default webApp;
