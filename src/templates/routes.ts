// The template routes: management under /v1/templates, AnyCrawl's discovery and execute endpoints under
// /v1/template/{ref} (docs/templates.md), and the hook that expands `template_id` + `variables` in the body of
// /v1/scrape, /v1/crawl, /v1/batch/scrape and /v1/search into the request the template stands for, before the route
// validates it (so it is validated exactly as a direct request).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ownerOf } from '../http/auth.js';
import { setTemplateRef } from '../http/template-ref.js';
import { InvalidInputError } from '../domain/errors.js';
import { VARIABLES_WITHOUT_TEMPLATE } from './task-payload.js';
import type { TemplateUse } from './expand.js';
import { ApiError, isUuid } from '../http/errors.js';
import { requestBaseUrl } from '../http/base-url.js';
import { withAbsoluteScreenshots } from '../screenshots/store.js';
import type { TemplateRunner } from './execute.js';
import {
  type CreateTemplateBody,
  createTemplateSchema,
  type ExecuteTemplateBody,
  executeTemplateSchema,
  listTemplatesQuerySchema,
  SLUG,
  type UpdateTemplateBody,
  updateTemplateSchema,
} from './schema.js';
import { templateSpec, templateView, type TemplateService } from './service.js';
import { isRecord } from '../util/text.js';

const USES: Readonly<Record<string, TemplateUse>> = {
  '/v1/scrape': 'scrape',
  '/v1/crawl': 'crawl',
  '/v1/batch/scrape': 'batch_scrape',
  '/v1/search': 'search',
};

export function templateExpansion(templates: TemplateService) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.method !== 'POST') return;
    const use = USES[request.routeOptions.url ?? ''];
    if (use === undefined || !isRecord(request.body)) return;
    const { template_id: templateId, variables, ...own } = request.body;
    if (templateId === undefined && variables !== undefined) throw new InvalidInputError([VARIABLES_WITHOUT_TEMPLATE]);
    // Anything else (not a string, variables not an object) is left to the route's validation to refuse.
    if (typeof templateId !== 'string' || templateId === '' || templateId.length > 255) return;
    if (variables !== undefined && !isRecord(variables)) return;
    const { body, template } = await templates.resolve(ownerOf(request), templateId, use, own, variables);
    request.body = body;
    setTemplateRef(request, template);
  };
}

type Params = { ref: string };

/** A template's id or slug from the path; anything else is the route's 400 before the store is asked. */
function refOf(request: FastifyRequest<{ Params: Params }>): string {
  const ref = request.params.ref;
  if (isUuid(ref)) return ref.toLowerCase();
  if (SLUG.test(ref)) return ref;
  throw new ApiError(400, {
    error: 'Invalid template ID',
    message: 'Template ID must be a valid UUID, or the template’s slug',
  });
}

const versionQuerySchema = z.strictObject({ version: z.coerce.number().int().min(1).optional() });

export function templateRoutes(service: TemplateService, runner: TemplateRunner, publicUrl: string | undefined) {
  return (app: FastifyInstance): void => {
    const tags = ['templates'];
    app.post<{ Body: CreateTemplateBody }>(
      '/v1/templates',
      { schema: { tags, summary: 'Create a template (version 1)', body: createTemplateSchema } },
      async (request, reply) => {
        const data = await service.create(ownerOf(request), request.body);
        return reply.status(201).send({ success: true, data });
      },
    );
    app.get<{ Querystring: z.infer<typeof listTemplatesQuerySchema> }>(
      '/v1/templates',
      { schema: { tags, summary: "This key's templates, newest first", querystring: listTemplatesQuerySchema } },
      async (request) => ({
        success: true,
        ...(await service.list(ownerOf(request), request.query.limit ?? 100, request.query.offset ?? 0)),
      }),
    );
    app.get<{ Params: Params; Querystring: z.infer<typeof versionQuerySchema> }>(
      '/v1/templates/:ref',
      { schema: { tags, summary: 'A template (its current version, or ?version=N)', querystring: versionQuerySchema } },
      async (request) => ({
        success: true,
        data: templateView(await service.get(ownerOf(request), refOf(request), request.query.version)),
      }),
    );
    app.get<{ Params: Params }>(
      '/v1/templates/:ref/versions',
      { schema: { tags, summary: "A template's versions, newest first" } },
      async (request) => ({ success: true, data: await service.versions(ownerOf(request), refOf(request)) }),
    );
    app.put<{ Params: Params; Body: UpdateTemplateBody }>(
      '/v1/templates/:ref',
      {
        schema: {
          tags,
          summary: 'Update a template: any subset of its fields, as a new version',
          body: updateTemplateSchema,
        },
      },
      async (request) => ({
        success: true,
        data: await service.update(ownerOf(request), refOf(request), request.body),
      }),
    );
    app.delete<{ Params: Params }>(
      '/v1/templates/:ref',
      { schema: { tags, summary: 'Delete a template and its versions (409 while scheduled tasks use it)' } },
      async (request) => {
        await service.delete(ownerOf(request), refOf(request));
        return { success: true, message: 'Template deleted' };
      },
    );

    // AnyCrawl's dedicated endpoints (its SDK's getTemplateSpec and executeTemplate), by id or slug.
    app.get<{ Params: Params }>(
      '/v1/template/:ref',
      { schema: { tags, summary: "A template's call-spec: its inputs and variables, not its options" } },
      async (request) => {
        const ref = refOf(request);
        return { success: true, data: templateSpec(await service.get(ownerOf(request), ref), ref) };
      },
    );
    app.post<{ Params: Params; Body: ExecuteTemplateBody }>(
      '/v1/template/:ref/execute',
      {
        schema: {
          tags,
          summary: 'Run a template with `url` or `query` and variables',
          description:
            'A scrape template answers as `/v1/scrape`, a search template as `/v1/search` (`data` is the results), a crawl template as `POST /v1/crawl` (a job id to poll).',
          body: executeTemplateSchema,
        },
      },
      async (request, reply) => {
        const controller = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) controller.abort();
        });
        const run = await runner.run(ownerOf(request), refOf(request), request.body, controller.signal);
        if (run.type === 'crawl') return { success: true, data: run.result };
        if (run.type === 'search') {
          const { results, ...rest } = run.result;
          return { success: true, data: results, ...rest };
        }
        return { success: true, data: withAbsoluteScreenshots(run.result, requestBaseUrl(request, publicUrl)) };
      },
    );
  };
}
