import * as client from 'openid-client';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** Resource indicator of the travel API: access tokens are JWTs for this audience. */
  audience: string;
  timeoutSeconds?: number;
}

/** Tokens as the BFF keeps them. Times are epoch milliseconds. */
export interface TokenSet {
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken?: string;
}

export interface SignInResult extends TokenSet {
  subject: string;
  identitySessionId?: string;
  name?: string;
  email?: string;
}

export interface LogoutClaims {
  subject?: string;
  identitySessionId?: string;
  jti: string;
  expiresAt: number;
}

/** Why a refresh failed: the grant is gone (sign in again) or the identity platform is unreachable. */
export class RefreshError extends Error {
  override name = 'RefreshError';
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean, cause: unknown) {
    super(message, { cause });
    this.permanent = permanent;
  }
}

export class LogoutTokenError extends Error {
  override name = 'LogoutTokenError';
}

const SCOPE = 'openid profile email travel';
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for the issuers that may be reached over plain http: loopback only. */
export function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * The BFF as a confidential OpenID Connect client (openid-client): discovery on first use (retried on the
 * next call after a failure, so the BFF starts before the identity platform does), authorization code
 * with PKCE, state and nonce, refresh, RP-initiated logout, and back-channel logout token validation.
 */
export class OidcClient {
  readonly #options: OidcClientOptions;
  #configuration: Promise<client.Configuration> | undefined;
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(options: OidcClientOptions) {
    this.#options = options;
  }

  async authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const configuration = await this.#discover();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#options.redirectUri,
      response_type: 'code',
      scope: SCOPE,
      resource: this.#options.audience,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** Validates the authorization response (iss, state, code) and exchanges the code. */
  async completeSignIn(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<SignInResult> {
    const configuration = await this.#discover();
    const tokens = await client.authorizationCodeGrant(
      configuration,
      callbackUrl,
      {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      },
      { resource: this.#options.audience },
    );
    const claims = tokens.claims();
    if (!claims) throw new Error('The token response carries no ID token');
    return {
      ...toTokenSet(tokens),
      subject: claims.sub,
      identitySessionId: typeof claims.sid === 'string' ? claims.sid : undefined,
      name: typeof claims.name === 'string' ? claims.name : undefined,
      email: typeof claims.email === 'string' ? claims.email : undefined,
    };
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    let configuration: client.Configuration;
    try {
      configuration = await this.#discover();
    } catch (error) {
      throw new RefreshError('The identity platform is unreachable', false, error);
    }
    try {
      const tokens = await client.refreshTokenGrant(configuration, refreshToken, {
        resource: this.#options.audience,
      });
      return toTokenSet(tokens, refreshToken);
    } catch (error) {
      const permanent = error instanceof client.ResponseBodyError && error.status < 500;
      throw new RefreshError(permanent ? 'The refresh was refused' : 'The refresh failed', permanent, error);
    }
  }

  /** Best effort: a refresh token the BFF no longer needs is revoked at the identity platform. */
  async revoke(refreshToken: string): Promise<void> {
    const configuration = await this.#discover();
    await client.tokenRevocation(configuration, refreshToken, { token_type_hint: 'refresh_token' });
  }

  /**
   * Where the browser goes to end the identity platform's session (RP-initiated logout). Deliberately
   * without id_token_hint: the ID token would otherwise travel through the browser. The identity
   * session's id (the ID token's sid) goes as logout_hint, so the platform knows the app itself asks.
   */
  async endSessionUrl(identitySessionId?: string): Promise<string> {
    const configuration = await this.#discover();
    return client.buildEndSessionUrl(configuration, {
      client_id: this.#options.clientId,
      post_logout_redirect_uri: this.#options.postLogoutRedirectUri,
      ...(identitySessionId ? { logout_hint: identitySessionId } : {}),
    }).href;
  }

  /**
   * OpenID Connect Back-Channel Logout 1.0 section 2.6: signature against the issuer's JWKS (RS256 only),
   * typ logout+jwt, iss, aud, iat, exp, the event claim, no nonce, and a sub or sid.
   */
  async verifyLogoutToken(logoutToken: string): Promise<LogoutClaims> {
    const configuration = await this.#discover();
    const metadata = configuration.serverMetadata();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(logoutToken, this.#jwksFor(metadata.jwks_uri), {
        issuer: metadata.issuer,
        audience: this.#options.clientId,
        algorithms: ['RS256'],
        typ: 'logout+jwt',
        requiredClaims: ['iat', 'exp', 'jti'],
        maxTokenAge: '5 minutes',
        clockTolerance: 15,
      }));
    } catch (error) {
      const reason = error instanceof joseErrors.JOSEError ? error.code : 'unverifiable';
      throw new LogoutTokenError(`The logout token is invalid (${reason})`, { cause: error });
    }
    const events = payload.events as Record<string, unknown> | undefined;
    const event = events?.[BACKCHANNEL_LOGOUT_EVENT];
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      throw new LogoutTokenError('The logout token carries no back-channel logout event');
    }
    if ('nonce' in payload) throw new LogoutTokenError('A logout token must not carry a nonce');
    const subject = typeof payload.sub === 'string' ? payload.sub : undefined;
    const identitySessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
    if (!subject && !identitySessionId) throw new LogoutTokenError('The logout token names no sub or sid');
    if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
      throw new LogoutTokenError('The logout token has no usable jti or exp');
    }
    return { subject, identitySessionId, jti: payload.jti, expiresAt: payload.exp * 1000 };
  }

  #jwksFor(jwksUri: string | undefined): ReturnType<typeof createRemoteJWKSet> {
    if (!jwksUri) throw new LogoutTokenError('The identity platform publishes no JWKS');
    this.#jwks ??= createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: (this.#options.timeoutSeconds ?? 5) * 1000,
      cooldownDuration: 30_000,
    });
    return this.#jwks;
  }

  #discover(): Promise<client.Configuration> {
    this.#configuration ??= this.#runDiscovery().catch((error: unknown) => {
      this.#configuration = undefined;
      throw error;
    });
    return this.#configuration;
  }

  async #runDiscovery(): Promise<client.Configuration> {
    const insecure = isLoopbackHttp(this.#options.issuer);
    return client.discovery(
      new URL(this.#options.issuer),
      this.#options.clientId,
      { client_secret: this.#options.clientSecret, id_token_signed_response_alg: 'RS256' },
      client.ClientSecretBasic(this.#options.clientSecret),
      {
        timeout: this.#options.timeoutSeconds ?? 5,
        execute: insecure ? [client.allowInsecureRequests] : [],
      },
    );
  }
}

function toTokenSet(
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  previousRefreshToken?: string,
): TokenSet {
  const expiresIn = tokens.expiresIn() ?? 300;
  return {
    accessToken: tokens.access_token,
    accessTokenExpiresAt: Date.now() + expiresIn * 1000,
    refreshToken: tokens.refresh_token ?? previousRefreshToken,
  };
}
