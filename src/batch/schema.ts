// Request schema of batch scrape creation (docs/api.md, "Batch scrape") and the options each of its pages runs with.
import { z } from 'zod';
import type { ValidationIssue } from '../domain/errors.js';
import type { PageJobOptions } from '../crawl/schema.js';
import { type Capabilities, unsupportedOptions } from '../scrape/capabilities.js';
import { ENGINES, pageOptionsShape, resolvePageOptions } from '../scrape/schema.js';

export const BATCH_LIMITS = {
  /** URLs one batch may name, as given (duplicates and invalid ones included); 400 above. */
  maxUrls: 10_000,
  /** Characters of one URL; a longer one is invalid (listed in `invalid_urls`, or a 400). */
  maxUrlLength: 8192,
} as const;

export const batchScrapeRequestSchema = z
  .strictObject({
    // Strings, not URLs: an invalid one is dropped (ignore_invalid_urls) or named by the service (urls.3).
    urls: z.array(z.string()).min(1).max(BATCH_LIMITS.maxUrls),
    ignore_invalid_urls: z.boolean().optional(),
    template_id: z.string().min(1).max(255).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
    engine: z.enum(ENGINES).optional(),
    retry: z.boolean().optional(),
    ...pageOptionsShape,
  })
  .meta({ id: 'BatchScrapeRequest' });
export type BatchScrapeRequest = z.infer<typeof batchScrapeRequestSchema>;

/** What every page of the batch runs with, defaults applied (as a scrape of the same fields). */
export function resolveBatchOptions(request: BatchScrapeRequest): PageJobOptions {
  const { urls, ignore_invalid_urls, template_id, variables, retry, engine, ...page } = request;
  void urls;
  void ignore_invalid_urls;
  void template_id;
  void variables;
  return { engine: engine ?? 'auto', retry: retry ?? false, page: resolvePageOptions({ ...page, engine }) };
}

/**
 * What creating this batch refuses beyond its schema: a template (templates do not exist yet, so
 * every id is unknown), then options this deployment cannot serve, as a scrape refuses them.
 */
export function batchRefusals(
  request: BatchScrapeRequest,
  options: PageJobOptions,
  caps: Capabilities,
): ValidationIssue[] {
  if (request.template_id !== undefined) {
    return [{ field: 'template_id', code: 'custom', message: `Template '${request.template_id}' not found` }];
  }
  return unsupportedOptions(options.page, caps);
}
