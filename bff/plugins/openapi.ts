import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sessionCookie } from '../sessions/session-cookie.ts';

export const API_DOCS_PREFIX = '/api/docs';

/**
 * Route schemas are zod schemas from shared/: this plugin makes them validate requests and serialise
 * responses, and, outside production, publishes them as the BFF's OpenAPI document at /api/docs.
 * Register it before any route, so every route is compiled with zod and listed in the document.
 */
async function openApiPlugin(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON only: a text/plain body (a form-free cross-site request) is refused at the edge.
  app.removeContentTypeParser('text/plain');
  if (app.config.NODE_ENV === 'production') return;

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Wayfare BFF',
        description:
          'The API the Wayfare web app calls on its own origin. Every error is the travel API error envelope.',
        version: '1',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: sessionCookie(app.config.PUBLIC_ORIGIN).name },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX });
}

export const openApi = fp(openApiPlugin, {
  name: 'openapi',
  fastify: '5.x',
  decorators: { fastify: ['config'] },
});
export default openApi;
