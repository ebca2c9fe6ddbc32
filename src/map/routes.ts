// POST /v1/map: the URLs of a site, from its sitemaps, its start page and the key's own crawls, at once.
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../http/auth.js';
import { type MapRequest, mapRequestSchema } from './schema.js';
import type { MapService } from './service.js';

export function mapRoutes(service: MapService) {
  return (app: FastifyInstance): void => {
    app.post<{ Body: MapRequest }>(
      '/v1/map',
      {
        schema: {
          tags: ['map'],
          summary: "List a site's URLs",
          description:
            "Collects the site's URLs without scraping them: its sitemaps (robots.txt's Sitemap lines, else /sitemap.xml; indexes and gzip followed), then the start page's links, then with `use_index` the URLs this key's own crawls saved. Normalized, de-duplicated, within the start URL's host (or its registrable domain with `include_subdomains`), at most `limit`. A sitemap that fails is skipped; the map fails (400/502/504 with a `code`) only when the start page fails and nothing was found.",
          body: mapRequestSchema,
        },
      },
      async (request, reply) => {
        // A client that hangs up stops the fetches instead of leaving them running.
        const controller = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) controller.abort();
        });
        const result = await service.map(ownerOf(request), request.body, controller.signal);
        return { success: true, data: result.links, job_id: result.job_id, sources: result.sources };
      },
    );
  };
}
