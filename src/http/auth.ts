// Bearer-key authentication for every /v1 route; the owner id it finds scopes all data of the request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeys } from '../keys/api-keys.js';
import { invalidApiKey } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    ownerId: string;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function installAuth(app: FastifyInstance, keys: ApiKeys): void {
  app.decorateRequest('ownerId', '');
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path !== '/v1' && !path.startsWith('/v1/')) return;
    const key = bearer(request);
    const ownerId = key === undefined ? undefined : await keys.verify(key);
    if (ownerId === undefined) throw invalidApiKey();
    request.ownerId = ownerId;
  });
}

/** The owner of the current request; routes under /v1 always have one. */
export function ownerOf(request: FastifyRequest): string {
  if (!request.ownerId) throw invalidApiKey();
  return request.ownerId;
}
