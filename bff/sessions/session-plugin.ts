import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { sessionCookie, type SessionCookie } from './session-cookie.ts';
import type { SessionKind, SessionStore, StoredSession } from './session-store.ts';
import { SqliteSessionStore } from './session-store.sqlite.ts';
import { loadSessionKeys } from './session-keys.ts';
import { SessionCipher } from './session-cipher.ts';
import { RedisSessionStore } from './session-store.redis.ts';
import { routePath } from '#shared/route-path.ts';

/** What route handlers see of a session: never a token. */
export interface SessionView {
  id: string;
  kind: SessionKind;
  travelerId?: string;
  name?: string;
  email?: string;
  locale?: string;
  /** ISO 8601: the earlier of the idle deadline and the absolute lifetime. */
  expiresAt: string;
}

export type SessionEndReason = 'logout' | 'backchannel' | 'expired' | 'refresh_failed';

export interface SessionEnd {
  sessionId: string;
  travelerId: string | undefined;
  reason: SessionEndReason;
}

/** Told once when a session ends; a promise it returns is awaited before the end is reported done. */
export type SessionEndListener = (end: SessionEnd) => unknown;

export interface TravelerSessionInit {
  travelerId: string;
  name?: string;
  email?: string;
  /** The profile's locale, when the travel API gave it at sign-in. */
  locale?: string;
  identitySessionId?: string;
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken?: string;
}

export interface Sessions {
  readonly store: SessionStore;
  readonly cookie: SessionCookie;
  /** A new session (always a fresh id) for a signed-in traveler; sets the cookie on the reply. */
  createTraveler(reply: FastifyReply, init: TravelerSessionInit): Promise<SessionView>;
  /** A new guest session backed by a travel API guest token; sets the cookie on the reply. */
  createGuest(
    reply: FastifyReply,
    guest: { guestToken: string; expiresAt: Date | string | number },
  ): Promise<SessionView>;
  /** The stored session when it exists and has not expired; an expired one is ended on the way. */
  load(sessionId: string): Promise<StoredSession | undefined>;
  /** Keeps the profile's locale in a traveler's session when it changed (a profile read or saved). */
  rememberLocale(sessionId: string, locale: string): Promise<void>;
  /** Ends a session and tells every listener, once. False when it had already ended. */
  end(sessionId: string, reason: SessionEndReason): Promise<boolean>;
  /** Subscribes to session ends (logout, back-channel logout, expiry, failed refresh); returns the unsubscribe. */
  onEnd(listener: SessionEndListener): () => void;
  clearCookie(reply: FastifyReply): void;
  view(session: StoredSession): SessionView;
}

/** Only these subtrees resolve the session: static files and webhooks never touch the store. */
const SESSION_PREFIXES = ['/api/', '/auth/'];

/** Opaque session ids: 256 bits from the CSPRNG, base64url. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

async function sessionPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const idleMs = config.SESSION_IDLE_TIMEOUT_SECONDS * 1000;
  const absoluteMs = config.SESSION_ABSOLUTE_LIFETIME_SECONDS * 1000;
  const touchEveryMs = Math.min(5000, Math.floor(idleMs / 10));
  const cookie = sessionCookie(config.PUBLIC_ORIGIN);
  const store: SessionStore = app.redis
    ? new RedisSessionStore({ redis: app.redis, idleTimeoutMs: idleMs, absoluteLifetimeMs: absoluteMs })
    : new SqliteSessionStore(
        config.DATA_DIR,
        new SessionCipher(
          loadSessionKeys({ configured: config.SESSION_ENCRYPTION_KEYS, dataDir: config.DATA_DIR }),
        ),
      );
  const listeners = new Set<SessionEndListener>();

  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

  const isExpired = (session: StoredSession, now: number): boolean =>
    session.absoluteExpiresAt <= now || session.lastSeenAt + idleMs <= now;

  const view = (session: StoredSession): SessionView => ({
    id: session.id,
    kind: session.kind,
    ...(session.travelerId === undefined ? {} : { travelerId: session.travelerId }),
    ...(session.name === undefined ? {} : { name: session.name }),
    ...(session.email === undefined ? {} : { email: session.email }),
    ...(session.locale === undefined ? {} : { locale: session.locale }),
    expiresAt: new Date(Math.min(session.absoluteExpiresAt, session.lastSeenAt + idleMs)).toISOString(),
  });

  const end = async (sessionId: string, reason: SessionEndReason): Promise<boolean> => {
    const session = await store.get(sessionId);
    const removed = await store.delete(sessionId);
    if (!removed) return false;
    app.log.info({ travelerId: session?.travelerId, kind: session?.kind, reason }, 'session ended');
    for (const listener of listeners) {
      try {
        await listener({ sessionId, travelerId: session?.travelerId, reason });
      } catch (error) {
        app.log.error({ err: error }, 'a session end listener failed');
      }
    }
    return true;
  };

  const load = async (sessionId: string): Promise<StoredSession | undefined> => {
    const session = await store.get(sessionId);
    if (!session) return undefined;
    if (isExpired(session, Date.now())) {
      await end(sessionId, 'expired');
      return undefined;
    }
    return session;
  };

  const setCookie = (reply: FastifyReply, session: StoredSession): void => {
    reply.setCookie(cookie.name, session.id, {
      ...cookie.options,
      maxAge: Math.max(0, Math.floor((session.absoluteExpiresAt - Date.now()) / 1000)),
    });
  };

  const clearCookie = (reply: FastifyReply): void => {
    reply.clearCookie(cookie.name, cookie.options);
  };

  /** Sign-in and guest creation both rotate the id: whatever session the browser had ends here. */
  const replaceCurrent = async (reply: FastifyReply): Promise<void> => {
    const current = reply.request.session;
    if (current) await end(current.id, 'logout');
  };

  const sessions: Sessions = {
    store,
    cookie,
    async createTraveler(reply, init) {
      await replaceCurrent(reply);
      const now = Date.now();
      const session: StoredSession = {
        id: newSessionId(),
        kind: 'traveler',
        createdAt: now,
        lastSeenAt: now,
        absoluteExpiresAt: now + absoluteMs,
        travelerId: init.travelerId,
        name: init.name,
        email: init.email,
        locale: init.locale,
        identitySessionId: init.identitySessionId,
        accessToken: init.accessToken,
        accessTokenExpiresAt: init.accessTokenExpiresAt,
        accessTokenIssuedAt: now,
        refreshToken: init.refreshToken,
      };
      await store.set(session);
      setCookie(reply, session);
      reply.request.session = view(session);
      return reply.request.session;
    },
    async createGuest(reply, guest) {
      const guestExpiresAt = new Date(guest.expiresAt).getTime();
      const now = Date.now();
      if (!Number.isFinite(guestExpiresAt) || guestExpiresAt <= now) {
        throw new AppError('BAD_GATEWAY', { message: 'The guest session token is already expired' });
      }
      await replaceCurrent(reply);
      const session: StoredSession = {
        id: newSessionId(),
        kind: 'guest',
        createdAt: now,
        lastSeenAt: now,
        absoluteExpiresAt: Math.min(now + absoluteMs, guestExpiresAt),
        guestToken: guest.guestToken,
      };
      await store.set(session);
      setCookie(reply, session);
      reply.request.session = view(session);
      return reply.request.session;
    },
    load,
    async rememberLocale(sessionId, locale) {
      const current = await store.get(sessionId);
      if (current?.kind === 'traveler' && current.locale !== locale) await store.set({ ...current, locale });
    },
    end,
    onEnd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clearCookie,
    view,
  };

  app.decorate('sessions', sessions);
  app.decorateRequest('session', null);
  app.decorateRequest('hadSessionCookie', false);

  app.addHook('onRequest', async (request, reply) => {
    const path = routePath(request);
    if (!SESSION_PREFIXES.some((prefix) => path.startsWith(prefix))) return;
    const sessionId = request.cookies[cookie.name];
    if (sessionId === undefined) return;
    request.hadSessionCookie = true;
    const session = SESSION_ID_PATTERN.test(sessionId) ? await load(sessionId) : undefined;
    if (!session) {
      clearCookie(reply);
      return;
    }
    const now = Date.now();
    if (now - session.lastSeenAt >= touchEveryMs) {
      await store.touch(session.id, now);
      session.lastSeenAt = now;
    }
    request.session = view(session);
  });

  app.decorate('requireSession', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.session) return undefined;
    return refuse(reply, notSignedIn(request));
  });
  app.decorate('requireTravelerSession', async (request: FastifyRequest, reply: FastifyReply) => {
    if (travelerOf(request)) return undefined;
    return refuse(reply, notSignedIn(request));
  });

  const sweep = async (): Promise<void> => {
    const expired = await store.findExpired(Date.now(), idleMs);
    for (const sessionId of expired) await end(sessionId, 'expired');
  };
  const sweeper = setInterval(() => {
    sweep().catch((error: unknown) => app.log.error({ err: error }, 'the session sweep failed'));
  }, config.SESSION_SWEEP_INTERVAL_SECONDS * 1000);
  sweeper.unref();

  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    listeners.clear();
    await store.close();
  });
}

/**
 * The signed-in traveler of a request (the session's id and the traveler's), or undefined for a guest
 * session or none. Behind `app.requireTravelerSession` it is always there.
 */
function travelerOf(request: FastifyRequest): SignedInTraveler | undefined {
  const session = request.session;
  if (session?.kind !== 'traveler' || session.travelerId === undefined) return undefined;
  return { sessionId: session.id, travelerId: session.travelerId };
}

/** The signed-in traveler of a route behind `app.requireTravelerSession`; anyone else is refused as that gate refuses. */
export function signedInTraveler(request: FastifyRequest): SignedInTraveler {
  const traveler = travelerOf(request);
  if (!traveler) throw notSignedIn(request);
  return traveler;
}

/** 401 for a request without a traveler: SESSION_EXPIRED after a cookie that no longer works, else UNAUTHORIZED. */
function notSignedIn(request: FastifyRequest): AppError {
  return request.hadSessionCookie && !request.session
    ? new AppError('SESSION_EXPIRED', {
        status: 401,
        message: 'Your session has ended. Sign in again.',
        recoveryAction: 'BLOCKED',
      })
    : new AppError('UNAUTHORIZED', { message: 'Sign in to continue.', recoveryAction: 'BLOCKED' });
}

function refuse(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(error.status).send(error.envelope);
}

export interface SignedInTraveler {
  sessionId: string;
  travelerId: string;
}

export default fp(sessionPlugin, {
  name: 'session',
  fastify: '5.x',
  decorators: { fastify: ['config', 'redis'] },
});

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
    /** onRequest hook of a route: 401 envelope (UNAUTHORIZED, or SESSION_EXPIRED after a cookie that no longer works). */
    requireSession: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
    /** onRequest hook of a route for signed-in travelers only: a guest session is refused too (401 UNAUTHORIZED). */
    requireTravelerSession: (
      request: FastifyRequest,
      reply: FastifyReply,
    ) => Promise<FastifyReply | undefined>;
  }
  interface FastifyRequest {
    /** Resolved for /api/* and /auth/* routes; null when the browser has no live session. */
    session: SessionView | null;
    hadSessionCookie: boolean;
  }
}
