import type { FastifyInstance } from 'fastify';
import type { SessionView } from '../../plugins/session.ts';

export type SessionStatus =
  | { authenticated: false }
  | {
      authenticated: true;
      kind: 'traveler';
      traveler: { id: string; name: string; email: string };
      expiresAt: string;
    }
  | { authenticated: true; kind: 'guest'; expiresAt: string };

export function sessionStatus(session: SessionView | null): SessionStatus {
  if (!session) return { authenticated: false };
  if (session.kind === 'guest') return { authenticated: true, kind: 'guest', expiresAt: session.expiresAt };
  return {
    authenticated: true,
    kind: 'traveler',
    traveler: { id: session.travelerId ?? '', name: session.name ?? '', email: session.email ?? '' },
    expiresAt: session.expiresAt,
  };
}

/** GET /api/session: who is signed in, for the SPA. Never a token. */
export default function sessionRoute(
  app: FastifyInstance,
  _options: unknown,
  done: (error?: Error) => void,
): void {
  app.get('/api/session', async (request, reply) => {
    return reply.header('cache-control', 'no-store').send(sessionStatus(request.session));
  });
  done();
}
