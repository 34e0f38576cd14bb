import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError } from '../config.ts';
import { AppError } from '../errors.ts';
import { isLoopbackHttp, OidcClient, RefreshError, type TokenSet } from './oidc-client.ts';
import type { StoredSession } from './session-store.ts';
import { fleetRefreshSingleFlight } from './fleet-refresh-single-flight.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';

export interface Auth {
  readonly oidc: OidcClient;
  /**
   * The traveler's access token for an upstream call, refreshed first when it expires within the leeway.
   * Parallel callers share one refresh. Throws 401 SESSION_EXPIRED (session ended) or UNAUTHORIZED.
   */
  accessTokenFor(request: FastifyRequest): Promise<string>;
  /** After an upstream 401: one refresh (shared with parallel callers), then the caller retries once. */
  forceRefresh(request: FastifyRequest): Promise<string>;
  /** The same as accessTokenFor, for work that has no request (the notification hub). */
  accessTokenForSession(sessionId: string): Promise<string>;
  /** The travel API guest session token of a guest session. Throws 401 otherwise. */
  guestTokenFor(request: FastifyRequest): Promise<string>;
}

/** A forced refresh right after another one (e.g. parallel retries after one upstream 401) reuses it. */
const FRESH_TOKEN_MS = 5000;

export function sessionExpiredError(cause?: unknown): AppError {
  return new AppError('SESSION_EXPIRED', {
    status: 401,
    message: 'Your session has ended. Sign in again.',
    recoveryAction: 'BLOCKED',
    cause,
  });
}

function notSignedInError(): AppError {
  return new AppError('UNAUTHORIZED', { message: 'Sign in to continue.', recoveryAction: 'BLOCKED' });
}

async function authPlugin(app: FastifyInstance): Promise<void> {
  const { config, sessions } = app;
  const issuer = new URL(config.OIDC_ISSUER);
  if (issuer.protocol !== 'https:' && !isLoopbackHttp(config.OIDC_ISSUER)) {
    throw new ConfigError('OIDC_ISSUER must be https (plain http is allowed on loopback only)');
  }
  const oidc = new OidcClient({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    redirectUri: new URL('/auth/callback', config.PUBLIC_ORIGIN).href,
    postLogoutRedirectUri: new URL('/', config.PUBLIC_ORIGIN).href,
    audience: config.TRAVEL_API_AUDIENCE,
  });
  const leewayMs = config.OIDC_REFRESH_LEEWAY_SECONDS * 1000;
  const refreshes = new Map<string, Promise<string>>();
  // Across instances too when sessions are shared in Redis: a lock per session plus its result.
  const singleFlight = app.redis
    ? fleetRefreshSingleFlight(app.redis, config.REFRESH_LOCK_MS)
    : (_sessionId: string, refresh: () => Promise<string>) => refresh();

  const liveTravelerSession = async (sessionId: string): Promise<StoredSession> => {
    const session = await sessions.load(sessionId);
    if (!session) throw sessionExpiredError();
    if (session.kind !== 'traveler' || !session.accessToken) throw notSignedInError();
    return session;
  };

  const needsRefresh = (session: StoredSession, force: boolean): boolean => {
    const now = Date.now();
    if (force) return now - (session.accessTokenIssuedAt ?? 0) >= FRESH_TOKEN_MS;
    return (session.accessTokenExpiresAt ?? 0) - leewayMs <= now;
  };

  const runRefresh = async (sessionId: string, force: boolean): Promise<string> => {
    // Read again inside the single flight: a refresh that finished a moment ago already rotated the token.
    const session = await liveTravelerSession(sessionId);
    if (!needsRefresh(session, force)) return session.accessToken as string;
    if (!session.refreshToken) {
      await sessions.end(sessionId, 'refresh_failed');
      throw sessionExpiredError();
    }
    let tokens: TokenSet;
    try {
      tokens = await oidc.refresh(session.refreshToken);
    } catch (error) {
      const stillValid = (session.accessTokenExpiresAt ?? 0) > Date.now() + 1000;
      if (error instanceof RefreshError && !error.permanent) {
        bffMetrics().sessionRefreshes.add(1, { outcome: 'unavailable' });
        app.log.warn({ err: error.message }, 'access token refresh failed transiently');
        if (stillValid && !force) return session.accessToken as string;
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'Sign-in service is unreachable. Try again shortly.',
          retryAfterSeconds: 5,
        });
      }
      bffMetrics().sessionRefreshes.add(1, { outcome: 'refused' });
      app.log.info({ travelerId: session.travelerId }, 'access token refresh refused: ending the session');
      await sessions.end(sessionId, 'refresh_failed');
      throw sessionExpiredError();
    }
    bffMetrics().sessionRefreshes.add(1, { outcome: 'refreshed' });
    const current = await sessions.store.get(sessionId);
    if (!current) throw sessionExpiredError();
    await sessions.store.set({
      ...current,
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      accessTokenIssuedAt: Date.now(),
      refreshToken: tokens.refreshToken ?? current.refreshToken,
    });
    return tokens.accessToken;
  };

  const joined = (inFlight: Promise<string>): Promise<string> => {
    bffMetrics().sessionRefreshJoins.add(1, { scope: 'process' });
    return inFlight;
  };

  const refreshOnce = (sessionId: string, force: boolean): Promise<string> => {
    const inFlight = refreshes.get(sessionId);
    if (inFlight) return joined(inFlight);
    const refresh = singleFlight(sessionId, () => runRefresh(sessionId, force)).finally(() =>
      refreshes.delete(sessionId),
    );
    refreshes.set(sessionId, refresh);
    return refresh;
  };

  const accessTokenForSession = async (sessionId: string): Promise<string> => {
    const inFlight = refreshes.get(sessionId);
    if (inFlight) return joined(inFlight);
    const session = await liveTravelerSession(sessionId);
    if (!needsRefresh(session, false)) return session.accessToken as string;
    return refreshOnce(sessionId, false);
  };

  const requireTravelerId = (request: FastifyRequest): string => {
    const session = request.session;
    if (!session) throw request.hadSessionCookie ? sessionExpiredError() : notSignedInError();
    if (session.kind !== 'traveler') throw notSignedInError();
    return session.id;
  };

  const auth: Auth = {
    oidc,
    accessTokenFor: async (request) => accessTokenForSession(requireTravelerId(request)),
    forceRefresh: async (request) => refreshOnce(requireTravelerId(request), true),
    accessTokenForSession,
    async guestTokenFor(request) {
      const view = request.session;
      if (!view) throw request.hadSessionCookie ? sessionExpiredError() : notSignedInError();
      const session = await sessions.load(view.id);
      if (!session) throw sessionExpiredError();
      if (session.kind !== 'guest' || !session.guestToken) {
        throw new AppError('UNAUTHORIZED', {
          message: 'This needs a guest session.',
          recoveryAction: 'BLOCKED',
        });
      }
      return session.guestToken;
    },
  };
  app.decorate('auth', auth);
}

export default fp(authPlugin, {
  name: 'auth',
  fastify: '5.x',
  dependencies: ['session'],
  decorators: { fastify: ['config', 'redis', 'sessions'] },
});

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
  }
}
