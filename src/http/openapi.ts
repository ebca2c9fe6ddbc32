// The OpenAPI 3 document (generated from the same Zod schemas that validate requests) and the /docs page.
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { makeRoutesPublic } from './auth.js';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Crawl service API',
        version,
        description:
          'Scrape pages, crawl sites, schedule tasks and receive signed webhooks. Every /v1 route takes `Authorization: Bearer <API key>`, except this document; /health and /health/live are public too.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // The docs page, its assets and the document itself (at /docs/json and /v1/openapi.json) are
  // public: the document describes the API and holds nothing secret. The plugin's routes are
  // marked so in a context of their own, so no other route can inherit the mark.
  await app.register(async (docs) => {
    makeRoutesPublic(docs);
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
  });
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
}
