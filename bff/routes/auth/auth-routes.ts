import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as oidcClient from 'openid-client';
import { z } from 'zod';
import { LogoutResponseSchema } from '#shared/api/logout-response.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import { AppError } from '../../errors.ts';
import { LogoutTokenError } from '../../sessions/oidc-client.ts';
import { safeReturnPath } from '../../sessions/safe-return-path.ts';
import type { StoredSession } from '../../sessions/session-store.ts';

const LOGIN_TRANSACTION_SECONDS = 10 * 60;
/** Sign-ins a browser (an address: it has no session yet) may start per minute; each stores a transaction. */
export const SIGN_INS_PER_MINUTE = 120;
const LOGOUT_TOKEN_MAX_BYTES = 16 * 1024;

/** `returnTo`, where to land after sign-in: a path on this site, judged as the browser will follow it. */
const SignInQuerySchema = z.object({
  returnTo: z
    .string()
    .transform((requested, context) => {
      const path = safeReturnPath(requested);
      if (path) return path;
      context.addIssue({
        code: 'custom',
        message: 'Use a path that starts with a single /.',
        params: { rule: 'NOT_A_LOCAL_PATH' },
      });
      return z.NEVER;
    })
    .default('/'),
});

/** The back-channel logout request (a form): its logout token, checked by the handler (400 when absent). */
const BackchannelLogoutSchema = z.looseObject({ logout_token: z.string().optional() });

/** The errors the sign-in routes answer themselves. */
const ErrorResponses = { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema };

function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(error.status).header('cache-control', 'no-store').send(error.envelope);
}

/** Why a sign-in that came back did not complete, as the start page names it (`/?signIn=<problem>`). */
type SignInProblem = 'expired' | 'failed' | 'unavailable';

/**
 * A sign-in that came back and failed. The callback is a browser's navigation: a browser goes to the start
 * page, which says what happened in the traveler's language beside the sign-in button (a navigation never
 * lands on a JSON body); any other client gets the error envelope.
 */
function sendSignInError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  problem: SignInProblem,
): FastifyReply {
  if (!(request.headers.accept ?? '').includes('text/html')) return sendError(reply, error);
  return reply.header('cache-control', 'no-store').redirect(`/?signIn=${problem}`, 303);
}

function identityUnavailable(cause: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', {
    message: 'Sign-in is unavailable right now. Try again shortly.',
    retryAfterSeconds: 5,
    cause,
  });
}

function signInFailed(message: string, cause?: unknown): AppError {
  return new AppError('SIGN_IN_FAILED', { status: 400, message, recoveryAction: 'RETRY_NOW', cause });
}

/** How long sign-in waits for the profile's locale before going on without it. */
const PROFILE_AT_SIGN_IN_TIMEOUT_MS = 2000;
/**
 * Sign-in, sign-out and back-channel logout. `/auth/login` -> identity platform -> `/auth/callback`
 * (the login cookie binds the transaction to this browser) -> the remembered local path.
 */
export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const { sessions, auth, config } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const loginCookieOptions = { ...sessions.cookie.options, maxAge: LOGIN_TRANSACTION_SECONDS };
  /** A sign-in's login cookie, named for its state (hashed: the state itself travels in URLs). */
  const loginCookieName = (state: string) =>
    `${sessions.cookie.loginName}_${createHash('sha256').update(state).digest('base64url').slice(0, 16)}`;

  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: LOGOUT_TOKEN_MAX_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
  }

  routes.get(
    '/auth/login',
    {
      config: {
        rateLimit: { max: SIGN_INS_PER_MINUTE, timeWindow: 60_000, keyGenerator: (r) => `ip:${r.ip}` },
      },
      schema: {
        tags: ['session'],
        summary: 'Start a sign-in: a redirect (303) to the identity platform',
        querystring: SignInQuerySchema,
        response: ErrorResponses,
      },
    },
    async (request, reply) => {
      const { returnTo } = request.query;
      const transaction = {
        id: randomBytes(32).toString('base64url'),
        state: oidcClient.randomState(),
        nonce: oidcClient.randomNonce(),
        codeVerifier: oidcClient.randomPKCECodeVerifier(),
        returnTo,
        expiresAt: Date.now() + LOGIN_TRANSACTION_SECONDS * 1000,
      };
      let authorizationUrl: URL;
      try {
        authorizationUrl = await auth.oidc.authorizationUrl(transaction);
      } catch (error) {
        request.log.error({ err: error }, 'identity platform discovery failed');
        return sendError(reply, identityUnavailable(error));
      }
      await sessions.store.saveLoginTransaction(transaction);
      reply.setCookie(loginCookieName(transaction.state), transaction.id, loginCookieOptions);
      return reply.header('cache-control', 'no-store').redirect(authorizationUrl.href, 303);
    },
  );

  // The callback URL carries the authorization code: the request log line (info) is left out for it.
  routes.get('/auth/callback', { logLevel: 'warn' }, async (request, reply) => {
    // The state names which of this browser's sign-ins came back: each has its own login cookie, so
    // tabs that start a sign-in at once (after a session was lost, say) each complete theirs.
    const state = new URL(request.url, config.PUBLIC_ORIGIN).searchParams.get('state');
    const cookieName = state ? loginCookieName(state) : undefined;
    const transactionId = cookieName ? request.cookies[cookieName] : undefined;
    if (cookieName && transactionId !== undefined) reply.clearCookie(cookieName, sessions.cookie.options);
    const transaction = transactionId ? await sessions.store.takeLoginTransaction(transactionId) : undefined;
    if (request.session?.kind === 'traveler') {
      // A tab whose sign-in another tab of the browser finished meanwhile (its session began after this
      // sign-in did) goes where it was going: the browser is signed in once, and this code is not
      // exchanged for a second session that would end the first under the other tabs. A callback already
      // used goes to the app. A sign-in started while signed in is a new sign-in: a new session.
      const current = await sessions.store.get(request.session.id);
      const startedAt = transaction ? transaction.expiresAt - LOGIN_TRANSACTION_SECONDS * 1000 : Infinity;
      if (!transaction || (current && current.createdAt >= startedAt)) {
        return reply.header('cache-control', 'no-store').redirect(transaction?.returnTo ?? '/', 303);
      }
    }
    if (!transaction) {
      return sendSignInError(
        request,
        reply,
        signInFailed('This sign-in expired or was already used. Sign in again.'),
        'expired',
      );
    }
    const callbackUrl = new URL(request.url, config.PUBLIC_ORIGIN);
    let signedIn;
    try {
      signedIn = await auth.oidc.completeSignIn(callbackUrl, transaction);
    } catch (error) {
      // The traveler chose Cancel on the sign-in page: back to the app, signed out, no error page.
      if (error instanceof oidcClient.AuthorizationResponseError && error.error === 'access_denied') {
        return reply.header('cache-control', 'no-store').redirect('/', 303);
      }
      if (
        error instanceof oidcClient.AuthorizationResponseError ||
        error instanceof oidcClient.ResponseBodyError
      ) {
        request.log.warn({ code: error.error }, 'sign-in refused by the identity platform');
        return sendSignInError(
          request,
          reply,
          signInFailed('Sign-in did not complete. Sign in again.', error),
          'failed',
        );
      }
      if (error instanceof oidcClient.ClientError) {
        request.log.warn({ code: error.code }, 'sign-in response failed validation');
        return sendSignInError(
          request,
          reply,
          signInFailed('Sign-in did not complete. Sign in again.', error),
          'failed',
        );
      }
      request.log.error({ err: error }, 'sign-in could not reach the identity platform');
      return sendSignInError(request, reply, identityUnavailable(error), 'unavailable');
    }
    await sessions.createTraveler(reply, {
      travelerId: signedIn.subject,
      name: signedIn.name,
      email: signedIn.email,
      locale: await profileLocale(signedIn.accessToken, request.id),
      identitySessionId: signedIn.identitySessionId,
      accessToken: signedIn.accessToken,
      accessTokenExpiresAt: signedIn.accessTokenExpiresAt,
      refreshToken: signedIn.refreshToken,
    });
    app.log.info({ travelerId: signedIn.subject }, 'traveler signed in');
    return reply.header('cache-control', 'no-store').redirect(transaction.returnTo, 303);
  });

  /**
   * The traveler's locale, read once at sign-in so that the app's first screen is in its language; a
   * travel API that does not answer in time leaves it unknown (the app then switches once the profile loads).
   */
  async function profileLocale(accessToken: string, requestId: string): Promise<string | undefined> {
    try {
      const profile = await app.travelApi.request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'bearer', token: accessToken },
        requestId,
        signal: AbortSignal.timeout(PROFILE_AT_SIGN_IN_TIMEOUT_MS),
        schema: ProfileSchema,
      });
      return profile.locale;
    } catch (error) {
      app.log.warn({ err: error instanceof Error ? error.message : error }, 'profile not read at sign-in');
      return undefined;
    }
  }

  // Anti-forgery applies (csrf plugin). The SPA navigates to redirectTo: the identity platform's
  // end-session page for travelers (which then returns to the app), the home page otherwise.
  routes.post(
    '/auth/logout',
    {
      schema: {
        tags: ['session'],
        summary: 'End the session; the SPA then navigates to redirectTo (the identity end-session page)',
        response: { 200: LogoutResponseSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const view = request.session;
      let stored: StoredSession | undefined;
      if (view) {
        stored = await sessions.store.get(view.id);
        await sessions.end(view.id, 'logout');
      }
      sessions.clearCookie(reply);
      if (stored?.refreshToken) {
        auth.oidc
          .revoke(stored.refreshToken)
          .catch((error: unknown) =>
            request.log.warn({ err: (error as Error).message }, 'refresh token revocation failed'),
          );
      }
      let redirectTo = '/';
      if (stored?.kind === 'traveler') {
        try {
          redirectTo = await auth.oidc.endSessionUrl(stored.identitySessionId);
        } catch (error) {
          request.log.warn({ err: (error as Error).message }, 'end-session URL unavailable');
        }
      }
      return reply.header('cache-control', 'no-store').send({ redirectTo });
    },
  );

  routes.post(
    '/auth/backchannel-logout',
    {
      schema: {
        tags: ['session'],
        summary: 'OpenID Connect back-channel logout: ends the sessions the logout token names',
        body: BackchannelLogoutSchema,
      },
      attachValidation: true,
    },
    async (request, reply) => {
      // The identity platform is told 400 for any request it must not retry as it is (OpenID Connect
      // Back-Channel Logout 1.0, 2.8), a form without a logout token or with a malformed one alike.
      const logoutToken = request.validationError ? undefined : request.body?.logout_token;
      if (logoutToken === undefined || logoutToken.length === 0) {
        return sendError(
          reply,
          new AppError('VALIDATION_ERROR', {
            status: 400,
            message: 'A logout_token is required.',
            details: [
              { field: 'logout_token', code: 'REQUIRED', message: 'Send logout_token as a form field.' },
            ],
          }),
        );
      }
      let claims;
      try {
        claims = await auth.oidc.verifyLogoutToken(logoutToken);
      } catch (error) {
        if (!(error instanceof LogoutTokenError)) {
          request.log.error({ err: (error as Error).message }, 'back-channel logout could not be verified');
          return sendError(reply, identityUnavailable(error));
        }
        request.log.warn({ reason: error.message }, 'back-channel logout token rejected');
        return sendError(reply, invalidLogoutToken());
      }
      if (!(await sessions.store.rememberLogoutTokenId(claims.jti, claims.expiresAt))) {
        request.log.warn('back-channel logout token replayed');
        return sendError(reply, invalidLogoutToken());
      }
      const candidates = claims.identitySessionId
        ? await sessions.store.findBySid(claims.identitySessionId)
        : await sessions.store.findBySubject(claims.subject as string);
      const matching = candidates.filter(
        (session) => claims.subject === undefined || session.travelerId === claims.subject,
      );
      for (const session of matching) await sessions.end(session.id, 'backchannel');
      request.log.info({ ended: matching.length }, 'back-channel logout processed');
      return reply.header('cache-control', 'no-store').send();
    },
  );
}

function invalidLogoutToken(): AppError {
  return new AppError('INVALID_LOGOUT_TOKEN', {
    status: 400,
    message: 'The logout token is not valid.',
    recoveryAction: 'CONTACT_SUPPORT',
  });
}
