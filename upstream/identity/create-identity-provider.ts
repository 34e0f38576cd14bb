import type { DatabaseSync } from 'node:sqlite';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { JWK } from 'jose';
import type { Logger } from 'pino';
import { findAccountBySub } from './accounts.ts';
import type { IdentityConfig } from './identity-config.ts';
import {
  renderLogoutPage,
  renderMessagePage,
  renderSigningOutPage,
  type RenderedPage,
} from './identity-pages.ts';
import { SqliteAdapter } from './sqlite-adapter.ts';

/** The one scope of the travel API resource server; the BFF requests it with openid, profile and email. */
export const TRAVEL_SCOPE = 'travel';

export interface IdentityProviderOptions {
  config: IdentityConfig;
  issuer: string;
  db: DatabaseSync;
  jwks: { keys: JWK[] };
  cookieKeys: string[];
  logger: Logger;
}

function sendPage(ctx: KoaContextWithOIDC, rendered: RenderedPage, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', rendered.contentSecurityPolicy);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = rendered.html;
}

/**
 * A sign-out a client started for this very session: a registered client, one of its post-logout
 * redirect URIs (oidc-provider has checked both), and logout_hint equal to the session's sid for that
 * client, which only the client's ID token carries.
 */
function isAppSignOut(ctx: KoaContextWithOIDC): boolean {
  const { client, params, session } = ctx.oidc;
  const hint = params?.logout_hint;
  return (
    client !== undefined &&
    typeof params?.post_logout_redirect_uri === 'string' &&
    typeof hint === 'string' &&
    hint.length > 0 &&
    session?.sidFor(client.clientId) === hint
  );
}

function list(value: string | undefined, fallback: string): string[] {
  return (value ?? fallback)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/**
 * The OpenID provider (oidc-provider): authorization code with PKCE (S256) for the BFF as a confidential
 * client, JWT access tokens for the travel API resource, refresh tokens rotated on every use,
 * RP-initiated and back-channel logout, everything persisted on node:sqlite.
 */
export function createIdentityProvider(options: IdentityProviderOptions): Provider {
  const { config, issuer, db, jwks, cookieKeys, logger } = options;
  const bffOrigin = new URL(config.IDENTITY_BFF_ORIGIN).origin;
  const audience = config.TRAVEL_API_AUDIENCE;
  const backchannelLogoutUri =
    config.IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI ?? `${bffOrigin}/auth/backchannel-logout`;
  const backchannelOrigin = new URL(backchannelLogoutUri).origin;

  const configuration: Configuration = {
    adapter: (model: string) => new SqliteAdapter(db, model),
    clients: [
      {
        client_id: config.IDENTITY_BFF_CLIENT_ID,
        client_secret: config.IDENTITY_BFF_CLIENT_SECRET,
        client_name: 'Wayfare',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
        redirect_uris: list(config.IDENTITY_BFF_REDIRECT_URIS, `${bffOrigin}/auth/callback`),
        post_logout_redirect_uris: list(config.IDENTITY_BFF_POST_LOGOUT_REDIRECT_URIS, `${bffOrigin}/`),
        backchannel_logout_uri:
          config.IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI ?? `${bffOrigin}/auth/backchannel-logout`,
        backchannel_logout_session_required: true,
      },
    ],
    jwks,
    cookies: { keys: cookieKeys },
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'email'],
    claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
    // The access token is for the travel API, not userinfo: the ID token carries name and email.
    conformIdTokenClaims: false,
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        // Only the client a token was issued to may revoke it (the BFF revokes its own refresh tokens).
        allowedPolicy: (_ctx, client, token) => {
          if (token.clientId !== client.clientId) {
            throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
          }
          return true;
        },
      },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // The app's own sign-out names the identity session it opened (logout_hint: the sid of its ID
        // token, kept server-side) and is not asked again; any other request to end the session is.
        logoutSource: (ctx, form) =>
          sendPage(ctx, isAppSignOut(ctx) ? renderSigningOutPage(form) : renderLogoutPage(form)),
        postLogoutSuccessSource: (ctx) =>
          sendPage(ctx, renderMessagePage('Signed out', 'You are signed out of Wayfare.')),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new errors.InvalidTarget();
          return {
            scope: TRAVEL_SCOPE,
            audience,
            accessTokenTTL: config.IDENTITY_ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    extraTokenClaims: (_ctx, token) => {
      const account = 'accountId' in token ? findAccountBySub(token.accountId) : undefined;
      return account ? { email: account.email, name: account.name } : undefined;
    },
    findAccount: (_ctx, sub) => {
      const account = findAccountBySub(sub);
      if (!account) return undefined;
      return {
        accountId: account.sub,
        claims: () => ({ sub: account.sub, name: account.name, email: account.email, email_verified: true }),
      };
    },
    // A first-party client: consent is implied, so every requested scope of a signed-in traveler is granted.
    loadExistingGrant: async (ctx) => {
      const { session, client, params } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const grant =
        (grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined) ??
        new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      const requested = typeof params?.scope === 'string' ? params.scope : 'openid';
      grant.addOIDCScope(
        requested
          .split(' ')
          .filter((scope) => scope !== TRAVEL_SCOPE)
          .join(' '),
      );
      grant.addResourceScope(audience, TRAVEL_SCOPE);
      await grant.save();
      return grant;
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.IDENTITY_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: config.IDENTITY_ID_TOKEN_TTL_SECONDS,
      RefreshToken: config.IDENTITY_REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 10 * 60,
      Session: config.IDENTITY_SESSION_TTL_SECONDS,
      Grant: config.IDENTITY_SESSION_TTL_SECONDS,
    },
    // oidc-provider refuses outgoing calls to special-use addresses (SSRF protection). The one configured
    // back-channel logout receiver, the BFF, lives on loopback in every embedded setup: calls to exactly
    // that origin go out without the guard, everything else keeps it.
    fetch: (input, options) => {
      const url = input instanceof Request ? input.url : input;
      if (new URL(url).origin !== backchannelOrigin) return globalThis.fetch(input, options);
      const { dispatcher: _ssrfGuard, ...rest } = (options ?? {}) as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(input, rest);
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: (ctx, out) => {
      const description =
        typeof out.error_description === 'string'
          ? out.error_description
          : 'The request could not be completed.';
      sendPage(ctx, renderMessagePage('Sign-in problem', description), ctx.status >= 400 ? ctx.status : 400);
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx, error) => logger.error({ err: error.message }, 'identity server error'));
  provider.on('grant.error', (_ctx, error) => logger.warn({ err: error.message }, 'token request refused'));
  provider.on('authorization.error', (_ctx, error) =>
    logger.warn({ err: error.message }, 'authorization refused'),
  );
  provider.on('backchannel.error', (_ctx, error, client) =>
    logger.warn({ err: error.message, clientId: client.clientId }, 'back-channel logout delivery failed'),
  );
  provider.on('backchannel.success', (_ctx, client) =>
    logger.info({ clientId: client.clientId }, 'back-channel logout delivered'),
  );
  return provider;
}
