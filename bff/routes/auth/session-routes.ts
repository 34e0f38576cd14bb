import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SessionStatusSchema, type SessionStatus } from '#shared/api/session-status.ts';
import type { SessionView } from '../../sessions/session-plugin.ts';

export function sessionStatus(session: SessionView | null): SessionStatus {
  if (!session) return { authenticated: false };
  if (session.kind === 'guest') return { authenticated: true, kind: 'guest', expiresAt: session.expiresAt };
  return {
    authenticated: true,
    kind: 'traveler',
    traveler: {
      id: session.travelerId ?? '',
      name: session.name ?? '',
      email: session.email ?? '',
      ...(session.locale === undefined ? {} : { locale: session.locale }),
    },
    expiresAt: session.expiresAt,
  };
}

/** GET /api/session: who is signed in, for the SPA. Never a token. */
export default async function sessionRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/session',
    {
      schema: {
        tags: ['session'],
        summary: 'Who is signed in (traveler or guest) and until when; never a token',
        response: { 200: SessionStatusSchema },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(sessionStatus(request.session)),
  );
}
