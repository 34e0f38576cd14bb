import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { GUEST_TOKEN_PREFIX } from '#shared/upstream/guest-session.ts';
import { GuestSessionStore, type Guest } from '../guest-sessions/guest-session-store.ts';
import { TokenVerifier, unauthorized } from '../token-verifier.ts';

export interface Traveler {
  id: string;
  email: string | undefined;
  name: string | undefined;
}

/** A route guard; register it as the route's `preParsing` hook so it runs right after the signature. */
export type RouteGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenVerifier;
    guests: GuestSessionStore;
    /** Requires a valid traveler JWT; sets request.traveler. */
    requireTraveler: RouteGuard;
    /** Requires a valid traveler JWT or a live guest session token; sets request.traveler or request.guest. */
    requireTravelerOrGuest: RouteGuard;
    /**
     * For routes open to everyone: a traveler JWT, when one is sent, must be valid and sets request.traveler;
     * a request without one (or with a guest session token) goes on as anyone's.
     */
    identifyTraveler: RouteGuard;
  }
  interface FastifyRequest {
    traveler: Traveler | undefined;
    guest: Guest | undefined;
    /**
     * The traveler's id on a route behind `requireTraveler`. Reading it where no traveler guard has run
     * is a wiring mistake, not a client error, and throws.
     */
    readonly travelerId: string;
  }
}

function bearerAuth(app: FastifyInstance, _options: unknown, done: () => void): void {
  const config = app.travelConfig;
  app.decorate(
    'tokens',
    new TokenVerifier({
      issuer: config.IDENTITY_ISSUER,
      audience: config.TRAVEL_API_AUDIENCE,
      jwksUri: config.IDENTITY_JWKS_URI,
      clockToleranceSeconds: config.TRAVEL_API_JWT_CLOCK_TOLERANCE_SECONDS,
      cooldownSeconds: config.TRAVEL_API_JWKS_COOLDOWN_SECONDS,
    }),
  );
  app.decorate('guests', new GuestSessionStore(app.db, config.TRAVEL_API_GUEST_SESSION_SECONDS));
  app.decorateRequest('traveler', undefined);
  app.decorateRequest('guest', undefined);
  app.decorateRequest('travelerId', {
    getter(this: FastifyRequest): string {
      if (!this.traveler) throw new Error('route reached without the traveler guard');
      return this.traveler.id;
    },
  });

  const authenticateTraveler = async (request: FastifyRequest, token: string): Promise<void> => {
    const claims = await app.tokens.verify(token);
    request.traveler = { id: claims.sub, email: claims.email, name: claims.name };
    app.travelers.ensure(request.traveler);
  };

  app.decorate('requireTraveler', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (token === undefined) throw unauthorized('A bearer token is required');
    if (token.startsWith(GUEST_TOKEN_PREFIX)) throw unauthorized('This operation needs a traveler token');
    await authenticateTraveler(request, token);
  });

  app.decorate('requireTravelerOrGuest', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (token === undefined) throw unauthorized('A bearer token or a guest session token is required');
    if (!token.startsWith(GUEST_TOKEN_PREFIX)) return authenticateTraveler(request, token);
    const guest = app.guests.resolve(token);
    if (!guest) throw unauthorized('The guest session token is unknown or has expired');
    request.guest = guest;
  });

  app.decorate('identifyTraveler', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (token === undefined || token.startsWith(GUEST_TOKEN_PREFIX)) return;
    await authenticateTraveler(request, token);
  });
  done();
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

export default fp(bearerAuth, { name: 'bearer-auth', dependencies: ['db', 'travelers'] });
