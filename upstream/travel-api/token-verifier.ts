import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { ServiceError } from './service-error.ts';

/** Claims the service relies on: `sub` names the traveler; email and name feed the profile when present. */
export const TravelerClaimsSchema = z.looseObject({
  sub: z.uuid(),
  email: z.string().optional(),
  name: z.string().optional(),
});
export type TravelerClaims = z.infer<typeof TravelerClaimsSchema>;

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Signing keys' URL; discovered from `${issuer}/.well-known/openid-configuration` when omitted. */
  jwksUri?: string | undefined;
  clockToleranceSeconds: number;
  cooldownSeconds: number;
}

const DiscoverySchema = z.looseObject({ issuer: z.string(), jwks_uri: z.url() });
const JOSE_REJECTIONS = new Set<string>([
  errors.JWTExpired.code,
  errors.JWTClaimValidationFailed.code,
  errors.JWTInvalid.code,
  errors.JWSInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
  errors.JWKInvalid.code,
]);

/**
 * Verifies traveler access tokens: RS256 only, signed by a key the identity platform publishes, from the
 * configured issuer, for this service's audience, unexpired (with a small clock tolerance). Nothing in a
 * token is trusted before that. An unknown key id refetches the key set at most once per cooldown.
 */
export class TokenVerifier {
  readonly #options: TokenVerifierOptions;
  #keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(options: TokenVerifierOptions) {
    this.#options = options;
  }

  async verify(token: string): Promise<TravelerClaims> {
    const keys = await this.#keySet();
    try {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: ['RS256'],
        issuer: this.#options.issuer,
        audience: this.#options.audience,
        clockTolerance: this.#options.clockToleranceSeconds,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      // jose checks exp and nbf; a token issued in the future (beyond the tolerance) is refused here.
      const issuedAt = payload.iat ?? 0;
      if (issuedAt > Date.now() / 1000 + this.#options.clockToleranceSeconds) {
        throw unauthorized('The bearer token is not valid yet');
      }
      const claims = TravelerClaimsSchema.safeParse(payload);
      if (!claims.success) throw unauthorized('The bearer token does not name a traveler');
      return claims.data;
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      if (error instanceof errors.JOSEError && JOSE_REJECTIONS.has(error.code)) {
        throw unauthorized(
          error.code === errors.JWTExpired.code
            ? 'The bearer token has expired'
            : 'The bearer token is invalid',
        );
      }
      throw identityUnavailable(error);
    }
  }

  #keySet(): Promise<JWTVerifyGetKey> {
    this.#keys ??= this.#createKeySet().catch((error: unknown) => {
      this.#keys = undefined;
      throw identityUnavailable(error);
    });
    return this.#keys;
  }

  async #createKeySet(): Promise<JWTVerifyGetKey> {
    const jwksUri = this.#options.jwksUri ?? (await this.#discoverJwksUri());
    return createRemoteJWKSet(new URL(jwksUri), {
      cooldownDuration: this.#options.cooldownSeconds * 1000,
      cacheMaxAge: 10 * 60 * 1000,
      timeoutDuration: 5000,
    });
  }

  async #discoverJwksUri(): Promise<string> {
    const url = new URL('.well-known/openid-configuration', withTrailingSlash(this.#options.issuer));
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`issuer metadata answered ${response.status}`);
    return DiscoverySchema.parse(await response.json()).jwks_uri;
  }
}

export function unauthorized(message: string): ServiceError {
  return new ServiceError('UNAUTHORIZED', { message });
}

function identityUnavailable(cause: unknown): ServiceError {
  if (cause instanceof ServiceError) return cause;
  return new ServiceError('SERVICE_UNAVAILABLE', {
    message: 'The identity platform is unavailable; the token cannot be verified now',
    recoveryAction: 'RETRY_LATER',
    retryAfterSeconds: 5,
    cause,
  });
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
