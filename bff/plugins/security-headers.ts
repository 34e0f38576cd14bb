import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/**
 * The Content-Security-Policy the SPA runs under: everything from its own origin, no inline script or
 * style, no framing. React applies style props through the CSSOM, which style-src does not govern, and
 * react-aria's constructed style sheets are not subject to it either. Form posts may go to the identity
 * platform (its sign-in redirect chain).
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'", new URL(config.OIDC_ISSUER).origin],
    'frame-ancestors': ["'none'"],
  };
  if (servedOverTls(config)) directives['upgrade-insecure-requests'] = [];
  return directives;
}

export function servedOverTls(config: Config): boolean {
  return new URL(config.PUBLIC_ORIGIN).protocol === 'https:';
}

async function securityHeadersPlugin(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(app.config) },
    strictTransportSecurity: servedOverTls(app.config)
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  });
}

/** Security headers on every response, errors and 404s included. */
export const securityHeaders = fp(securityHeadersPlugin, {
  name: 'security-headers',
  fastify: '5.x',
  decorators: { fastify: ['config'] },
});
export default securityHeaders;
