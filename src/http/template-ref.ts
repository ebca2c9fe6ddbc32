// Which template a request was expanded from: set before validation, read by the route that runs the request, so
// that its job records the template and version that made it (docs/templates.md).
import type { FastifyRequest } from 'fastify';

import type { TemplateRef } from '../domain/template-ref.js';

export type { TemplateRef };

const refs = new WeakMap<FastifyRequest, TemplateRef>();

export function setTemplateRef(request: FastifyRequest, ref: TemplateRef): void {
  refs.set(request, ref);
}

export function templateRefOf(request: FastifyRequest): TemplateRef | undefined {
  return refs.get(request);
}
