// Bearer-key authentication, decided on the route the router dispatched to; the owner id it finds scopes all data of
// the request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeys } from '../keys/api-keys.js';
import { invalidApiKey } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    ownerId: string;
  }
  interface FastifyContextConfig {
    /** Anyone may call the route (health, the docs page); every other route needs a key. */
    public?: boolean;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return webSocketKey(request);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * A WebSocket handshake without an Authorization header may carry the key as its one subprotocol, as Firecrawl's
 * clients send it (browsers cannot set headers on a WebSocket); the server then echoes it back as the protocol.
 */
function webSocketKey(request: FastifyRequest): string | undefined {
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') return undefined;
  const protocol = request.headers['sec-websocket-protocol'];
  if (typeof protocol !== 'string') return undefined;
  const [first, ...rest] = protocol.split(',').map((p) => p.trim());
  return rest.length === 0 && first !== undefined && first !== '' ? first : undefined;
}

/**
 * Whether the request needs a key. Decided by the matched route, never by the URL as sent: the
 * router decodes `%76` to `v`, drops `;params` and accepts absolute-form targets, so a prefix
 * test on `request.url` let `/%761/...` through. Default deny: a route is open only when it is
 * marked `public`, and a request that matched no route needs a key too, so that 404 and 405
 * (which tell what exists) are only said to key holders.
 */
function needsKey(request: FastifyRequest): boolean {
  if (request.is404) return true;
  return request.routeOptions.config.public !== true;
}

export function installAuth(app: FastifyInstance, keys: ApiKeys): void {
  app.decorateRequest('ownerId', '');
  app.addHook('onRequest', async (request) => {
    if (!needsKey(request)) return;
    const key = bearer(request);
    const ownerId = key === undefined ? undefined : await keys.verify(key);
    if (ownerId === undefined) throw invalidApiKey();
    request.ownerId = ownerId;
  });
}

/** Marks every route registered in `app` (an encapsulated plugin context) public. */
export function makeRoutesPublic(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
  });
}

/** The owner of the current request; routes that need a key always have one. */
export function ownerOf(request: FastifyRequest): string {
  if (!request.ownerId) throw invalidApiKey();
  return request.ownerId;
}
