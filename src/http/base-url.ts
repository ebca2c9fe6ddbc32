// The address clients reach the service at, for the absolute links responses carry.
import type { FastifyRequest } from 'fastify';

/** PUBLIC_URL when set, else the scheme and Host of the request. */
export function requestBaseUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
