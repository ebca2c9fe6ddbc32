// POST /v1/scrape: scrape one page and answer with its content at once.
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { requestBaseUrl } from '../http/base-url.js';
import { templateRefOf } from '../http/template-ref.js';
import { withAbsoluteScreenshots } from '../screenshots/store.js';
import { type ScrapeRequest, scrapeRequestSchema } from './schema.js';
import type { ScrapeService } from './service.js';

export function scrapeRoutes(service: ScrapeService, publicUrl: string | undefined) {
  return (app: FastifyInstance): void => {
    app.post<{ Body: ScrapeRequest }>(
      '/v1/scrape',
      {
        schema: {
          tags: ['scrape'],
          summary: 'Scrape one page',
          description:
            'Fetches the page (or reads the page cache when `max_age` allows) and answers with the requested formats and metadata. Target HTTP errors (4xx/5xx) still answer 200 with `metadata.status_code`; an unreachable, blocked or timed-out target answers 400/502/504 with an error `code`.',
          body: scrapeRequestSchema,
        },
      },
      async (request, reply) => {
        // A client that hangs up stops the fetch instead of leaving it running.
        const controller = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) controller.abort();
        });
        const template = templateRefOf(request);
        const data = await service.scrape(
          ownerOf(request),
          request.body,
          controller.signal,
          template ? { template } : {},
        );
        return { success: true, data: withAbsoluteScreenshots(data, requestBaseUrl(request, publicUrl)) };
      },
    );
  };
}
