// Firecrawl's v2 scrape, crawl and batch scrape routes, over the services /v1 uses (docs/firecrawl.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { BatchService } from '../batch/service.js';
import { BATCH_LIMITS } from '../batch/schema.js';
import { parseSkip } from '../crawl/routes.js';
import { normalizeUrl } from '../crawl/scope/index.js';
import type { CrawlService } from '../crawl/service.js';
import { ownerOf } from '../http/auth.js';
import { requestBaseUrl } from '../http/base-url.js';
import { isUuid } from '../http/errors.js';
import { httpUrl } from '../scrape/schema.js';
import type { ScrapeService } from '../scrape/service.js';
import { mapCrawlRequest, type V2CrawlRequest, v2CrawlRequestSchema } from './crawl-request.js';
import { toFirecrawlDocument } from './document.js';
import { firecrawlIdParam, inV2Words, refusalError } from './errors.js';
import { errorsOf, firecrawlStatus, type FrontierJobReader, statusPage } from './job-views.js';
import { watchJob } from './watch.js';
import { hangUpSignal } from './hang-up.js';
import { previewCrawlOptions } from './params-preview.js';
import {
  mapExtractRequest,
  mergeExtracted,
  sourcesOf,
  type V2ExtractRequest,
  v2ExtractRequestSchema,
} from './extract.js';
import { withHeaderValuesHidden } from '../scrape/headers-schema.js';
import { mapScrapeOptions, scrapeOnlyRefusals, type V2ScrapeOptions, v2ScrapeOptionsShape } from './scrape-options.js';
import type { ChangeTrackingStore } from './change-tracking.js';

const tags = ['firecrawl'];

export const v2ScrapeRequestSchema = z
  .strictObject({ url: httpUrl, ...v2ScrapeOptionsShape })
  .meta({ id: 'FirecrawlScrapeRequest' });
type V2ScrapeRequest = z.infer<typeof v2ScrapeRequestSchema>;

export const v2BatchRequestSchema = z
  .strictObject({
    urls: z.array(z.string()).min(1).max(BATCH_LIMITS.maxUrls),
    ignoreInvalidURLs: z.boolean().optional(),
    webhook: z.unknown().optional(),
    appendToId: z.string().optional(),
    maxConcurrency: z.number().int().min(1).optional(),
    ...v2ScrapeOptionsShape,
  })
  .meta({ id: 'FirecrawlBatchScrapeRequest' });
type V2BatchRequest = z.infer<typeof v2BatchRequestSchema>;

function jobIdOf(request: FastifyRequest<{ Params: { jobId: string } }>): string {
  return firecrawlIdParam(request.params.jobId, 'job');
}

/** Scrape options of a v2 body: every field but those of the request itself. */
function scrapeOptionsOf<T extends Record<string, unknown>>(
  body: T,
  requestFields: readonly string[],
): V2ScrapeOptions {
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!requestFields.includes(key)) options[key] = value;
  return options as V2ScrapeOptions;
}

export interface JobRouteDeps {
  scrape: ScrapeService;
  crawl: CrawlService;
  batch: BatchService;
  /** The last content seen of each URL, for the changeTracking format. */
  changes: ChangeTrackingStore;
  publicUrl: string | undefined;
  /** The body limit of batch scrape creation, which names up to 10,000 URLs. */
  batchBodyLimitBytes: number;
}

export function registerJobRoutes(app: FastifyInstance, deps: JobRouteDeps): void {
  const { scrape, crawl, batch, changes, publicUrl } = deps;

  app.post<{ Body: V2ScrapeRequest }>(
    '/scrape',
    { schema: { tags, summary: 'Scrape one page (Firecrawl v2)', body: v2ScrapeRequestSchema } },
    async (request, reply) => {
      const mapped = mapScrapeOptions(scrapeOptionsOf(request.body, ['url']));
      if (mapped.refusals.length > 0) throw refusalError(mapped.refusals);
      const signal = hangUpSignal(reply);
      const page = await inV2Words(mapped.renames, () =>
        scrape.scrape(ownerOf(request), { url: request.body.url, ...mapped.page }, signal),
      );
      const base = requestBaseUrl(request, publicUrl);
      const doc = toFirecrawlDocument(page, base, page.job_id);
      const tracking = mapped.changeTracking;
      if (tracking !== undefined) {
        doc.changeTracking = await changes.track({
          ownerId: ownerOf(request),
          url: page.url,
          tag: tracking.tag,
          markdown: page.markdown ?? '',
          ...(tracking.modes.includes('json') ? { json: page.json ?? null } : {}),
          statusCode: page.metadata.status_code,
          scrapeId: page.job_id,
          now: page.timestamp,
          modes: tracking.modes,
        });
        if (tracking.jsonAdded) delete doc.json;
      }
      return { success: true, data: doc };
    },
  );

  app.post<{ Body: V2CrawlRequest }>(
    '/crawl',
    { schema: { tags, summary: 'Start a crawl (Firecrawl v2)', body: v2CrawlRequestSchema } },
    async (request) => {
      const mapped = mapCrawlRequest(request.body);
      if (mapped.refusals.length > 0) throw refusalError(mapped.refusals);
      const created = await inV2Words(mapped.renames, () =>
        crawl.create(ownerOf(request), mapped.request, undefined, mapped.rules),
      );
      const base = requestBaseUrl(request, publicUrl);
      return { success: true, id: created.job_id, url: `${base}/v2/crawl/${created.job_id}` };
    },
  );

  app.post<{ Body: { url: string; prompt: string } }>(
    '/crawl/params-preview',
    {
      schema: {
        tags,
        summary: 'Crawl options read from a sentence, by rules (Firecrawl v2)',
        body: z.looseObject({ url: httpUrl, prompt: z.string().trim().min(1).max(10_000) }),
      },
    },
    async (request) => ({
      success: true,
      data: { url: request.body.url, ...previewCrawlOptions(request.body.prompt) },
      warning: 'These options were read from the prompt by rules, not by a model (docs/firecrawl.md); check them',
    }),
  );

  app.get(
    '/crawl/active',
    { schema: { tags, summary: 'Running crawls of this key (Firecrawl v2)' } },
    async (request) => {
      const owner = ownerOf(request);
      const running = await crawl.running(owner, 1000);
      return {
        success: true,
        crawls: running.map((job) => ({
          id: job.id,
          teamId: owner,
          url: job.url,
          created_at: job.created_at,
          // A listing: the target's cookies and tokens stay out of it.
          options: withHeaderValuesHidden(job.request),
        })),
      };
    },
  );

  for (const [kind, reader, path] of [
    ['crawl', crawl, '/v2/crawl'],
    ['batch/scrape', batch, '/v2/batch/scrape'],
  ] as const) {
    const label = kind === 'crawl' ? 'crawl' : 'batch scrape';
    app.route<{ Params: { jobId: string }; Querystring: { skip?: string } }>({
      method: 'GET',
      url: `/${kind}/:jobId`,
      schema: {
        tags,
        summary: `Status and documents of a ${label}, 100 a page; a WebSocket here streams them (Firecrawl v2)`,
      },
      handler: async (request) =>
        statusPage(
          reader as FrontierJobReader,
          ownerOf(request),
          jobIdOf(request),
          parseSkip(request.query.skip),
          requestBaseUrl(request, publicUrl),
          path,
        ),
      wsHandler: (socket, request) => {
        const id = request.params.jobId;
        if (!isUuid(id)) {
          socket.close(1008, JSON.stringify({ type: 'error', error: 'Invalid job ID' }));
          return;
        }
        void watchJob(socket, request, {
          reader: reader as FrontierJobReader,
          ownerId: ownerOf(request),
          id: id.toLowerCase(),
          baseUrl: requestBaseUrl(request, publicUrl),
        });
      },
    });
    app.delete<{ Params: { jobId: string } }>(
      `/${kind}/:jobId`,
      { schema: { tags, summary: `Cancel a ${label} (Firecrawl v2)` } },
      async (request) => {
        await reader.cancel(ownerOf(request), jobIdOf(request));
        return { success: true, status: 'cancelled' };
      },
    );
    app.get<{ Params: { jobId: string } }>(
      `/${kind}/:jobId/errors`,
      { schema: { tags, summary: `Failed pages of a ${label} (Firecrawl v2)` } },
      async (request) => errorsOf(reader as FrontierJobReader, ownerOf(request), jobIdOf(request)),
    );
  }

  app.post<{ Body: V2BatchRequest }>(
    '/batch/scrape',
    {
      bodyLimit: deps.batchBodyLimitBytes,
      schema: { tags, summary: 'Start a batch scrape (Firecrawl v2)', body: v2BatchRequestSchema },
    },
    async (request) => {
      const body = request.body;
      const mapped = mapScrapeOptions(
        scrapeOptionsOf(body, ['urls', 'ignoreInvalidURLs', 'webhook', 'appendToId', 'maxConcurrency']),
      );
      const refusals = [...mapped.refusals, ...scrapeOnlyRefusals(mapped)];
      if (body.webhook !== undefined && body.webhook !== null)
        refusals.push({
          field: 'webhook',
          message:
            'A per-batch webhook is not offered by this server; subscribe to scrape events with POST /v1/webhooks',
        });
      if (body.appendToId !== undefined)
        refusals.push({ field: 'appendToId', message: 'Adding URLs to a running batch is not offered by this server' });
      if (refusals.length > 0) throw refusalError(refusals);
      // Firecrawl's default: invalid URLs are listed and left out rather than refusing the batch.
      const ignoreInvalid = body.ignoreInvalidURLs ?? true;
      const created = await inV2Words([...mapped.renames, ['ignore_invalid_urls', 'ignoreInvalidURLs']], () =>
        batch.create(ownerOf(request), { urls: body.urls, ignore_invalid_urls: ignoreInvalid, ...mapped.page }),
      );
      const base = requestBaseUrl(request, publicUrl);
      return {
        success: true,
        id: created.job_id,
        url: `${base}/v2/batch/scrape/${created.job_id}`,
        ...(ignoreInvalid ? { invalidURLs: created.invalid_urls ?? [] } : {}),
      };
    },
  );

  app.post<{ Body: V2ExtractRequest }>(
    '/extract',
    { schema: { tags, summary: 'Extract structured data from pages (Firecrawl v2)', body: v2ExtractRequestSchema } },
    async (request) => {
      const mapped = mapExtractRequest(request.body);
      if (mapped.refusals.length > 0) throw refusalError(mapped.refusals);
      const created = await inV2Words([...mapped.renames, ['urls', 'urls']], () =>
        batch.create(ownerOf(request), {
          urls: mapped.urls,
          ignore_invalid_urls: request.body.ignoreInvalidURLs ?? false,
          ...mapped.page,
        }),
      );
      return {
        success: true,
        id: created.job_id,
        ...(created.invalid_urls !== undefined ? { invalidURLs: created.invalid_urls } : {}),
      };
    },
  );

  app.get<{ Params: { jobId: string } }>(
    '/extract/:jobId',
    { schema: { tags, summary: 'Status and merged data of an extract (Firecrawl v2)' } },
    async (request) => {
      const owner = ownerOf(request);
      const id = jobIdOf(request);
      const base = requestBaseUrl(request, publicUrl);
      const { status, results: page } = await batch.statusAndResults(owner, id, 0, base);
      const state = firecrawlStatus(page.status);
      const common = { success: true, id, expiresAt: status.expires_at, creditsUsed: page.credits_used };
      if (state === 'scraping') return { ...common, status: 'processing' };
      if (state === 'cancelled') return { ...common, status: 'cancelled', data: null };
      // In the order the request named the URLs, so the first URL's values win (results are in the order they ended).
      const given = await batch.request(owner, id);
      const order = Array.isArray(given.urls) ? given.urls.map((u) => normalizeUrl(String(u).trim())) : [];
      const rank = (url: string) => (order.indexOf(url) < 0 ? order.length : order.indexOf(url));
      const pages = page.data
        .map((item) => ({ url: String(item.url), json: item.json ?? null }))
        .sort((a, b) => rank(a.url) - rank(b.url));
      const data = mergeExtracted(pages.map((p) => p.json));
      if (data === null) {
        const reasons = page.data
          .map((item) => (item.metadata as { json_error?: { message?: string } } | undefined)?.json_error?.message)
          .filter((m): m is string => typeof m === 'string');
        const error = status.error?.message ?? reasons[0] ?? 'No page gave the data asked for';
        return { ...common, status: 'failed', data: null, error };
      }
      return { ...common, status: 'completed', data, sources: sourcesOf(pages) };
    },
  );
}
