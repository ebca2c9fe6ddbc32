// Builds the Fastify app: logging, auth, validation, error shapes, docs and the capability routes.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { ApiKeys } from '../keys/api-keys.js';
import { installAuth } from './auth.js';
import { installErrorHandling } from './error-handler.js';
import { registerOpenApi } from './openapi.js';
import { RouteTable } from './route-table.js';
import { zodValidatorCompiler } from './validation.js';

export interface ServerOptions {
  logger: FastifyBaseLogger;
  keys: ApiKeys;
  bodyLimitBytes: number;
  version: string;
  /** Registers the capability routes (scrape, crawl, ...). */
  routes: Array<(app: FastifyInstance) => void | Promise<void>>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    // Fastify's two lines per request are replaced by one 'request' line (onResponse below).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
    // A client's own request id is kept (for tracing across systems) when it is sane.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  // Bodies are JSON only: anything else is a 415, not a string handed to validation.
  app.removeContentTypeParser('text/plain');

  const routes = new RouteTable();
  routes.attach(app);
  installErrorHandling(app, routes);
  installAuth(app, options.keys);

  // While shutting down, answers close their connection: otherwise a keep-alive client
  // would hold the server open until its idle timeout after the last in-flight request.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (closing) void reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: request.url.split('?')[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        ...(request.ownerId ? { owner: request.ownerId } : {}),
      },
      'request',
    );
  });

  await registerOpenApi(app, options.version);
  app.get('/health', { schema: { hide: true }, config: { public: true } }, async () => ({ success: true, status: 'ok' }));
  for (const register of options.routes) await register(app);
  return app;
}
