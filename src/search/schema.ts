// The request schema of POST /v1/search (docs/api.md, "POST /v1/search") and its defaults.
import { z } from 'zod';
import { ENGINES, pageOptionsShape } from '../scrape/schema.js';
import { SEARCH_SOURCES, type SearchQuery, TIME_RANGES } from './engine.js';

export const SEARCH_LIMITS = {
  defaultLimit: 10,
  maxLimit: 100,
  maxOffset: 1000,
  maxPages: 10,
  maxQueryChars: 2000,
  /** Results per page SearXNG gives, about: `pages` defaults to what offset + limit need of them. */
  resultsPerPage: 10,
} as const;

/** The engines AnyCrawl's clients name; which of them this deployment offers is the service's to say. */
export const ENGINE_NAMES = ['index', 'searxng', 'google', 'ac-engine'] as const;

// A BCP 47 language tag as search engines take them (`en`, `pt-BR`, `zh-Hans-CN`), or `all`.
export const LANGUAGE_TAG = /^(?:all|[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3})$/;

/** The options each result is scraped with: a scrape's page options and engine (AnyCrawl's scrape_options). */
export const searchScrapeOptionsSchema = z.strictObject({
  engine: z.enum(ENGINES).optional(),
  template_id: z.string().min(1).max(255).optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  ...pageOptionsShape,
});

const safeSearchLevel = z
  .union([z.literal(0), z.literal(1), z.literal(2)])
  .nullable()
  .optional();

export const searchRequestSchema = z
  .strictObject({
    query: z.string().trim().min(1).max(SEARCH_LIMITS.maxQueryChars),
    /** Checked by the service against the engines this deployment offers (a 400 names them). */
    engine: z.string().min(1).max(50).optional(),
    limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional(),
    offset: z.number().int().min(0).max(SEARCH_LIMITS.maxOffset).optional(),
    pages: z.number().int().min(1).max(SEARCH_LIMITS.maxPages).optional(),
    lang: z.string().regex(LANGUAGE_TAG, 'Must be a language tag such as en or pt-BR, or all').optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'Must be a two-letter country code such as US')
      .optional(),
    timeRange: z.enum(TIME_RANGES).optional(),
    sources: z.enum(SEARCH_SOURCES).optional(),
    safe_search: safeSearchLevel,
    /** The name AnyCrawl's published SDK (0.0.3) sends for safe_search; safe_search wins when both are given. */
    safeSearch: safeSearchLevel,
    scrape_options: searchScrapeOptionsSchema.optional(),
    template_id: z.string().min(1).max(255).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'SearchRequest' });
export type SearchRequest = z.infer<typeof searchRequestSchema>;
export type SearchScrapeOptions = z.infer<typeof searchScrapeOptionsSchema>;

/** The engine-neutral query of a request, defaults applied. */
export function searchQueryOf(request: SearchRequest): SearchQuery {
  const limit = request.limit ?? SEARCH_LIMITS.defaultLimit;
  const offset = request.offset ?? 0;
  const lang = request.lang?.toLowerCase() === 'all' ? undefined : request.lang;
  const safeSearch = request.safe_search ?? request.safeSearch;
  return {
    query: request.query,
    limit,
    offset,
    pages:
      request.pages ??
      Math.min(SEARCH_LIMITS.maxPages, Math.max(1, Math.ceil((offset + limit) / SEARCH_LIMITS.resultsPerPage))),
    ...(lang !== undefined ? { lang } : {}),
    ...(request.country !== undefined ? { country: request.country.toUpperCase() } : {}),
    ...(request.timeRange !== undefined ? { timeRange: request.timeRange } : {}),
    source: request.sources ?? 'web',
    ...(safeSearch !== undefined && safeSearch !== null ? { safeSearch } : {}),
  };
}
