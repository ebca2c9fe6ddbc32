// The batch scrape routes: POST /v1/batch/scrape, GET /v1/batch/scrape/:jobId/status, GET /v1/batch/scrape/:jobId,
// DELETE /v1/batch/scrape/:jobId (AnyCrawl's shapes; docs/api.md, "Batch scrape").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { templateRefOf } from '../http/template-ref.js';
import { requestBaseUrl } from '../http/base-url.js';
import { uuidParam } from '../http/errors.js';
import { parseSkip } from '../crawl/routes.js';
import { BATCH_LIMITS, type BatchScrapeRequest, batchScrapeRequestSchema } from './schema.js';
import type { BatchService } from './service.js';

function jobIdOf(request: FastifyRequest<{ Params: { jobId: string } }>): string {
  return uuidParam(request.params.jobId, 'job');
}

export function batchRoutes(service: BatchService, publicUrl: string | undefined, bodyLimitBytes: number) {
  return (app: FastifyInstance): void => {
    app.post<{ Body: BatchScrapeRequest }>(
      '/v1/batch/scrape',
      {
        // Up to 10,000 URLs: more than the other routes' body limit allows.
        bodyLimit: bodyLimitBytes,
        schema: {
          tags: ['batch'],
          summary: 'Start a batch scrape',
          description: `Scrapes up to ${BATCH_LIMITS.maxUrls} given URLs in the background, each with the same page options as \`/v1/scrape\`. Answers at once with a job id and the number of distinct URLs queued; invalid URLs are listed in \`invalid_urls\` (or a 400 with \`ignore_invalid_urls: false\`). Poll \`/v1/batch/scrape/{jobId}/status\`, read results with \`/v1/batch/scrape/{jobId}?skip=0\`.`,
          body: batchScrapeRequestSchema,
        },
      },
      async (request) => ({
        success: true,
        data: await service.create(ownerOf(request), request.body, templateRefOf(request)),
      }),
    );

    app.get<{ Params: { jobId: string } }>(
      '/v1/batch/scrape/:jobId/status',
      { schema: { tags: ['batch'], summary: 'Batch scrape status' } },
      async (request) => ({
        success: true,
        message: 'Job status retrieved successfully',
        data: await service.status(ownerOf(request), jobIdOf(request)),
      }),
    );

    app.get<{ Params: { jobId: string }; Querystring: { skip?: string } }>(
      '/v1/batch/scrape/:jobId',
      { schema: { tags: ['batch'], summary: 'Batch scrape results, 100 a page; follow `next` until it is absent' } },
      async (request) => {
        const id = jobIdOf(request);
        const skip = parseSkip(request.query.skip);
        return service.results(ownerOf(request), id, skip, requestBaseUrl(request, publicUrl));
      },
    );

    app.delete<{ Params: { jobId: string } }>(
      '/v1/batch/scrape/:jobId',
      { schema: { tags: ['batch'], summary: 'Cancel a batch scrape' } },
      async (request) => ({
        success: true,
        message: 'Batch scrape job cancelled',
        data: await service.cancel(ownerOf(request), jobIdOf(request)),
      }),
    );
  };
}
