// Builds the Fastify app: logging, auth, validation, error shapes, docs and the capability routes.
import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { ApiKeys } from '../keys/api-keys.js';
import { installAuth } from './auth.js';
import { answerNodeSpecialCases, clientErrorHandler } from './client-errors.js';
import websocket from '@fastify/websocket';
import { installErrorHandling } from './error-handler.js';
import { registerHealth } from './health.js';
import { registerHome } from './home.js';
import { ApiError, badRequest, errorBody, serviceUnavailable } from './errors.js';
import { installJsonBodyParser } from './json-body.js';
import { registerOpenApi } from './openapi.js';
import { RouteTable } from './route-table.js';
import { zodValidatorCompiler } from './validation.js';

/** The largest message a WebSocket client may send (the watch ignores them; ws closes the socket with 1009 above). */
export const WEBSOCKET_MAX_PAYLOAD_BYTES = 64 * 1024;

/** How long and how many: the limits on what clients may hold of the server. */
export interface HttpLimits {
  /** Time to receive a whole request (head and body). Answering is not limited by it. */
  requestTimeoutMs: number;
  /** Time to receive the request line and headers; at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; 0: no cap. */
  maxConnections: number;
}

/**
 * Longer than any URL Node accepts (the request line and headers share a 16 KiB limit), so an
 * over-long id always reaches its route's own 400 "Invalid <thing> ID" instead of Fastify's 414.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

export interface ServerOptions {
  logger: FastifyBaseLogger;
  keys: ApiKeys;
  bodyLimitBytes: number;
  limits: HttpLimits;
  version: string;
  /** A trivial query of the store, for /health; it may throw or hang while the database is out of reach. */
  probeStore: () => Promise<unknown>;
  /** Registers the capability routes (scrape, crawl, ...); `routes` answers 405s for a plugin with its own handlers. */
  routes: Array<(app: FastifyInstance, routes: RouteTable) => void | Promise<void>>;
  /**
   * Runs on every authenticated request before its body is validated: may rewrite the body (a template expanded
   * into the request it stands for), which is then validated as if the client had sent it.
   */
  beforeValidation?: (request: FastifyRequest) => Promise<void>;
}

function routingError(error: FastifyError): ApiError {
  if (error.code === 'FST_ERR_BAD_URL') return badRequest('The URL path is not valid percent-encoding');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return badRequest('A path parameter is too long');
  return new ApiError(error.statusCode ?? 400, { error: 'Bad request', message: error.message });
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { limits } = options;
  const headersTimeoutMs = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
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
    // Without these Node waits forever for a request's rest (Fastify sets requestTimeout to 0):
    // connections that sent headers and half a body were held for minutes. Node checks the
    // limits every connectionsCheckingInterval (30 s by default, too coarse for a 10 s limit).
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
      // Node's own refusal is an empty 400; the onRequest hook below answers in the error shape.
      requireHostHeader: false,
    },
    // No socket inactivity timeout (connectionTimeout): a synchronous scrape may rightly send
    // nothing for minutes (its own `timeout` bounds it).
    clientErrorHandler: clientErrorHandler(
      { requestTimeoutMs: limits.requestTimeoutMs, headersTimeoutMs },
      options.logger,
    ),
    // Routing failures (broken percent-encoding) are answered in the error shape too.
    frameworkErrors: (error, _request, reply) => {
      const answer = routingError(error);
      void (reply as FastifyReply).status(answer.statusCode).send(errorBody(answer));
    },
    // Our own 503 (onRequest below) has the error shape; Fastify's has not.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  });
  if (limits.maxConnections > 0) app.server.maxConnections = limits.maxConnections;
  answerNodeSpecialCases(app.server);
  app.setValidatorCompiler(zodValidatorCompiler);
  // Bodies are JSON only: anything else is a 415, not a string handed to validation.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);

  const routes = new RouteTable();
  routes.attach(app);
  installErrorHandling(app, routes);

  // While shutting down, answers close their connection: otherwise a keep-alive client
  // would hold the server open until its idle timeout after the last in-flight request.
  // Requests that still arrive (on a connection that was mid-request) get a 503 at once.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request) => {
    if (closing)
      throw serviceUnavailable(
        'The service is shutting down; send the request again (to another instance, or once it is back)',
      );
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
      throw badRequest('HTTP/1.1 requests must have a Host header');
  });
  // WebSocket routes (Firecrawl's watcher, src/firecrawl/watch.ts). Registered before the key check so that its hooks
  // see every upgrade request: an upgrade answered with an error (a wrong key, a 404) has its socket destroyed.
  await app.register(websocket, { options: { maxPayload: WEBSOCKET_MAX_PAYLOAD_BYTES } });
  installAuth(app, options.keys);
  const beforeValidation = options.beforeValidation;
  if (beforeValidation) app.addHook('preValidation', beforeValidation);
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
  registerHealth(app, options.probeStore);
  registerHome(app, options.version);
  for (const register of options.routes) await register(app, routes);
  return app;
}
