// POST /v1/search: a query to a search engine (SearXNG, or this key's own saved pages), optionally scraping results.
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { requestBaseUrl } from '../http/base-url.js';
import { templateRefOf } from '../http/template-ref.js';
import { withAbsoluteScreenshots } from '../screenshots/store.js';
import { type SearchRequest, searchRequestSchema } from './schema.js';
import type { SearchService } from './service.js';

export function searchRoutes(service: SearchService, publicUrl: string | undefined) {
  return (app: FastifyInstance): void => {
    app.post<{ Body: SearchRequest }>(
      '/v1/search',
      {
        schema: {
          tags: ['search'],
          summary: 'Search the web (SearXNG) or your own saved pages (index)',
          description:
            "Answers the query's results at once, in rank order: `title`, `url`, `description` (a snippet) and `source` (the engine). `engine` is `searxng` (when SEARXNG_URL is set) or `index` (the pages this key scraped or crawled); another engine is a 400 naming those offered. With `scrape_options` each result is also scraped (its formats beside it, or `status: failed` with `error` and `error_code`). An engine that is down or answers garbage is a 502, one that is too slow a 504, each with a `code`.",
          body: searchRequestSchema,
        },
      },
      async (request, reply) => {
        // A client that hangs up stops the engine query and the scrapes instead of leaving them running.
        const controller = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) controller.abort();
        });
        const template = templateRefOf(request);
        const result = await service.search(
          ownerOf(request),
          request.body,
          controller.signal,
          template ? { template } : {},
        );
        const base = requestBaseUrl(request, publicUrl);
        return {
          success: true,
          data: result.results.map((item) => withAbsoluteScreenshots(item, base)),
          job_id: result.job_id,
          engine: result.engine,
          ...(result.template ? { template: result.template } : {}),
        };
      },
    );
  };
}
