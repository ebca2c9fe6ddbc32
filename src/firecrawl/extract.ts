// Firecrawl's extract (POST /v2/extract, GET /v2/extract/:id) over this service's batch scrape and structured
// extraction: each URL is scraped with the `json` format (a model when one is configured, else the built-in rules),
// then the objects of the pages are merged into one answer (docs/firecrawl.md, "Extract").
import { z } from 'zod';
import type { PageOptionsInput } from '../scrape/schema.js';
import { mapScrapeOptions, type Refusal, scrapeOnlyRefusals, v2ScrapeOptionsSchema } from './scrape-options.js';

/** URLs one extract may name (Firecrawl's own limit while its extract was in beta). */
export const MAX_EXTRACT_URLS = 10;

export const v2ExtractRequestSchema = z
  .strictObject({
    urls: z.array(z.string().max(8192)).min(1).max(MAX_EXTRACT_URLS).optional(),
    prompt: z.string().max(10_000).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    systemPrompt: z.string().max(10_000).optional(),
    allowExternalLinks: z.boolean().optional(),
    enableWebSearch: z.boolean().optional(),
    showSources: z.boolean().optional(),
    ignoreInvalidURLs: z.boolean().optional(),
    scrapeOptions: v2ScrapeOptionsSchema.optional(),
    agent: z.unknown().optional(),
    webhook: z.unknown().optional(),
    integration: z.string().max(100).optional(),
    origin: z.string().max(100).optional(),
  })
  .meta({ id: 'FirecrawlExtractRequest' });
export type V2ExtractRequest = z.infer<typeof v2ExtractRequestSchema>;

const NOT_HERE = 'is not offered by this server (docs/firecrawl.md lists what is)';

/** The batch an extract runs as: its URLs, each page scraped for the `json` format; or why it is refused. */
export function mapExtractRequest(body: V2ExtractRequest): {
  urls: string[];
  page: PageOptionsInput;
  refusals: Refusal[];
  renames: Array<[string, string]>;
} {
  const refusals: Refusal[] = [];
  const urls = body.urls ?? [];
  if (urls.length === 0) refusals.push({ field: 'urls', message: 'Extract needs the URLs of the pages to read here' });
  urls.forEach((url, i) => {
    if (url.includes('*'))
      refusals.push({
        field: `urls.${i}`,
        message: `Wildcard URLs are ${NOT_HERE.slice(3)}; list the pages, or crawl with the json format`,
      });
  });
  if (body.schema === undefined && (body.prompt ?? '').trim() === '')
    refusals.push({ field: 'prompt', message: 'Extract needs a schema, a prompt or both' });
  if (body.enableWebSearch === true)
    refusals.push({ field: 'enableWebSearch', message: `Web search during extract ${NOT_HERE}` });
  if (body.agent !== undefined && body.agent !== null)
    refusals.push({ field: 'agent', message: `The agent ${NOT_HERE}` });
  if (body.webhook !== undefined && body.webhook !== null)
    refusals.push({
      field: 'webhook',
      message: `A per-job webhook ${NOT_HERE}; subscribe to scrape events with POST /v1/webhooks`,
    });
  const scrape = mapScrapeOptions({ ...body.scrapeOptions, formats: [] }, 'scrapeOptions');
  refusals.push(...scrape.refusals.filter((r) => r.field !== 'scrapeOptions.formats'), ...scrapeOnlyRefusals(scrape));
  const prompt = [body.systemPrompt, body.prompt].filter((p) => p !== undefined && p.trim() !== '').join('\n\n');
  const page: PageOptionsInput = {
    ...scrape.page,
    formats: ['json'],
    json_options: {
      ...(body.schema !== undefined ? { schema: body.schema } : {}),
      ...(prompt !== '' ? { user_prompt: prompt } : {}),
    },
  };
  return {
    urls,
    page,
    refusals,
    renames: [
      ['json_options.schema', 'schema'],
      ['json_options', 'prompt'],
      ...scrape.renames.filter(([from]) => !from.startsWith('formats')),
    ],
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The pages' objects merged, in page order: a field takes the first page's value that is not null; arrays are joined
 * (without repeating an equal item); objects are merged the same way, field by field.
 */
export function mergeExtracted(values: readonly unknown[]): unknown {
  let merged: unknown = null;
  for (const value of values) merged = mergeTwo(merged, value);
  return merged;
}

function mergeTwo(a: unknown, b: unknown): unknown {
  if (a === null || a === undefined) return b ?? null;
  if (b === null || b === undefined) return a;
  if (Array.isArray(a) && Array.isArray(b)) {
    const seen = new Set(a.map((item) => JSON.stringify(item)));
    return [...a, ...b.filter((item) => !seen.has(JSON.stringify(item)))];
  }
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) out[key] = mergeTwo(out[key], value);
    return out;
  }
  return a;
}

/** For showSources: each top-level field of the answer, and the pages whose object had a value for it. */
export function sourcesOf(pages: ReadonlyArray<{ url: string; json: unknown }>): Record<string, string[]> {
  const sources: Record<string, string[]> = {};
  for (const page of pages) {
    if (!isObject(page.json)) continue;
    for (const [key, value] of Object.entries(page.json)) {
      if (value === null || value === undefined) continue;
      (sources[key] ??= []).push(page.url);
    }
  }
  return sources;
}
