// The crawl routes: POST /v1/crawl, GET /v1/crawl/:jobId/status, GET /v1/crawl/:jobId, DELETE /v1/crawl/:jobId.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { templateRefOf } from '../http/template-ref.js';
import { requestBaseUrl } from '../http/base-url.js';
import { uuidParam, validationError } from '../http/errors.js';
import { type CrawlRequest, crawlRequestSchema } from './schema.js';
import type { CrawlService } from './service.js';

function jobIdOf(request: FastifyRequest<{ Params: { jobId: string } }>): string {
  return uuidParam(request.params.jobId, 'job');
}

/** The `skip` of a results page: a whole number of 0 or more (400 otherwise); batch scrapes read it too. */
export function parseSkip(raw: unknown): number {
  if (raw === undefined || raw === '') return 0;
  const text = String(raw);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw validationError([
      { field: 'skip', code: 'invalid_type', message: 'skip must be a whole number of 0 or more' },
    ]);
  }
  return Number(text);
}

export function crawlRoutes(service: CrawlService, publicUrl: string | undefined) {
  return (app: FastifyInstance): void => {
    app.post<{ Body: CrawlRequest }>(
      '/v1/crawl',
      {
        schema: {
          tags: ['crawl'],
          summary: 'Start a crawl',
          description:
            'Answers at once with a job id; the crawl runs in the background. Poll `/v1/crawl/{jobId}/status`, read results with `/v1/crawl/{jobId}?skip=0`.',
          body: crawlRequestSchema,
        },
      },
      async (request) => ({
        success: true,
        data: await service.create(ownerOf(request), request.body, templateRefOf(request)),
      }),
    );

    app.get<{ Params: { jobId: string } }>(
      '/v1/crawl/:jobId/status',
      { schema: { tags: ['crawl'], summary: 'Crawl status' } },
      async (request) => ({
        success: true,
        message: 'Job status retrieved successfully',
        data: await service.status(ownerOf(request), jobIdOf(request)),
      }),
    );

    app.get<{ Params: { jobId: string }; Querystring: { skip?: string } }>(
      '/v1/crawl/:jobId',
      { schema: { tags: ['crawl'], summary: 'Crawl results, 100 a page; follow `next` until it is absent' } },
      async (request) => {
        const id = jobIdOf(request);
        const skip = parseSkip(request.query.skip);
        return service.results(ownerOf(request), id, skip, requestBaseUrl(request, publicUrl));
      },
    );

    app.delete<{ Params: { jobId: string } }>(
      '/v1/crawl/:jobId',
      { schema: { tags: ['crawl'], summary: 'Cancel a crawl' } },
      async (request) => ({
        success: true,
        message: 'Crawl job cancelled',
        data: await service.cancel(ownerOf(request), jobIdOf(request)),
      }),
    );
  };
}
