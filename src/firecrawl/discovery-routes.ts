// Firecrawl's v2 map and search routes, over the /v1 map and search services (docs/firecrawl.md).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { compileRegexRules } from '../crawl/scope/path-regex.js';
import { MatchSubject } from '../crawl/scope/path-pattern.js';
import { ownerOf } from '../http/auth.js';
import { requestBaseUrl } from '../http/base-url.js';
import { MAP_LIMITS } from '../map/schema.js';
import type { MapService } from '../map/service.js';
import { httpUrl, MAX_TIMEOUT_MS } from '../scrape/schema.js';
import { LANGUAGE_TAG, SEARCH_LIMITS, type SearchRequest } from '../search/schema.js';
import type { SearchResultItem, SearchService } from '../search/service.js';
import { regexRules } from './crawl-request.js';
import { toFirecrawlDocument } from './document.js';
import { hangUpSignal } from './hang-up.js';
import { inV2Words, refusalError } from './errors.js';
import { mapScrapeOptions, type Refusal, scrapeOnlyRefusals, v2ScrapeOptionsSchema } from './scrape-options.js';

const tags = ['firecrawl'];
const NOT_HERE = 'is not offered by this server (docs/firecrawl.md lists what is)';

export const v2MapRequestSchema = z
  .strictObject({
    url: httpUrl,
    search: z.string().max(1000).optional(),
    sitemap: z.enum(['skip', 'include', 'only']).optional(),
    includeSubdomains: z.boolean().optional(),
    ignoreQueryParameters: z.boolean().optional(),
    limit: z.number().int().min(1).max(MAP_LIMITS.maxLimit).optional(),
    timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
    useIndex: z.boolean().optional(),
    ignoreCache: z.boolean().optional(),
    filterByPath: z.boolean().optional(),
    includePaths: regexRules.optional(),
    excludePaths: regexRules.optional(),
    regexOnFullURL: z.boolean().optional(),
    location: z.looseObject({}).optional(),
    integration: z.string().max(100).optional(),
    origin: z.string().max(100).optional(),
  })
  .meta({ id: 'FirecrawlMapRequest' });
type V2MapRequest = z.infer<typeof v2MapRequestSchema>;

// `alexandria` (Firecrawl's tool exchange, which firecrawl-mcp asks for by default) is accepted and left out here.
const sourceName = z.enum(['web', 'news', 'images', 'alexandria']);

export const v2SearchRequestSchema = z
  .strictObject({
    query: z.string().trim().min(1).max(SEARCH_LIMITS.maxQueryChars),
    limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional(),
    sources: z
      .array(z.union([sourceName, z.looseObject({ type: sourceName })]))
      .min(1)
      .max(3)
      .optional(),
    categories: z.array(z.unknown()).max(10).optional(),
    includeDomains: z.array(z.string().min(1).max(253)).max(100).optional(),
    excludeDomains: z.array(z.string().min(1).max(253)).max(100).optional(),
    tbs: z.string().max(100).optional(),
    lang: z.string().max(35).optional(),
    country: z.string().max(10).optional(),
    location: z.string().max(200).optional(),
    timeout: z.number().int().min(1).optional(),
    ignoreInvalidURLs: z.boolean().optional(),
    highlights: z.boolean().optional(),
    domainTools: z.boolean().optional(),
    toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
    // Zero data retention and anonymized search are not offered: only the default is accepted.
    enterprise: z.array(z.literal('default')).max(1).optional(),
    scrapeOptions: v2ScrapeOptionsSchema.optional(),
    integration: z.string().max(100).optional(),
    origin: z.string().max(100).optional(),
  })
  .meta({ id: 'FirecrawlSearchRequest' });
type V2SearchRequest = z.infer<typeof v2SearchRequestSchema>;

/** Firecrawl's `tbs` time filters (qdr:d, qdr:w, qdr:m, qdr:y) as the search engines' time ranges. */
const TBS_RANGES: Record<string, SearchRequest['timeRange']> = {
  'qdr:d': 'day',
  'qdr:w': 'week',
  'qdr:m': 'month',
  'qdr:y': 'year',
};

/** Rank links by how many words of `search` their URL, title or description holds; stable, matches first. */
function rankBySearch<T extends { url: string; title?: string; description?: string }>(
  links: T[],
  search: string,
): T[] {
  const words = search
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return links;
  const score = (link: T) => {
    const text = `${link.url} ${link.title ?? ''} ${link.description ?? ''}`.toLowerCase();
    return words.reduce((sum, word) => sum + (text.includes(word) ? 1 : 0), 0);
  };
  return links
    .map((link, index) => ({ link, index, score: score(link) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.link);
}

/** Without its query string, for ignoreQueryParameters. */
function withoutQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

function hostMatches(url: string, domains: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return domains.some((d) => {
    const domain = d.toLowerCase().replace(/^\*\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
}

export interface DiscoveryRouteDeps {
  map: MapService;
  search: SearchService;
  publicUrl: string | undefined;
}

export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryRouteDeps): void {
  app.post<{ Body: V2MapRequest }>(
    '/map',
    { schema: { tags, summary: "List a site's URLs (Firecrawl v2)", body: v2MapRequestSchema } },
    async (request, reply) => {
      const body = request.body;
      const signal = hangUpSignal(reply);
      const limit = body.limit ?? MAP_LIMITS.defaultLimit;
      const result = await inV2Words(
        [
          ['include_subdomains', 'includeSubdomains'],
          ['use_index', 'useIndex'],
        ],
        () =>
          deps.map.map(
            ownerOf(request),
            {
              url: body.url,
              // Filtering and ranking happen after: ask for the most the request may keep.
              limit: body.includePaths || body.excludePaths || body.search ? MAP_LIMITS.maxLimit : limit,
              include_subdomains: body.includeSubdomains ?? true,
              ignore_sitemap: body.sitemap === 'skip',
              use_index: body.useIndex ?? true,
              ...(body.ignoreCache === true ? { max_age: 0 } : {}),
              ...(body.timeout !== undefined ? { timeout: body.timeout } : {}),
            },
            signal,
            { sitemapOnly: body.sitemap === 'only' },
          ),
      );
      const include = compileRegexRules(body.includePaths ?? [], body.regexOnFullURL === true);
      const exclude = compileRegexRules(body.excludePaths ?? [], body.regexOnFullURL === true);
      const seen = new Set<string>();
      let links = result.links.filter((link) => {
        const key = body.ignoreQueryParameters === false ? link.url : withoutQuery(link.url);
        if (seen.has(key)) return false;
        seen.add(key);
        if (include.size === 0 && exclude.size === 0) return true;
        const subject = new MatchSubject(new URL(link.url));
        if (exclude.size > 0 && exclude.matches(subject) !== false) return false;
        return include.size === 0 || include.matches(subject) === true;
      });
      if (body.search !== undefined) links = rankBySearch(links, body.search);
      return {
        success: true,
        id: result.job_id,
        links: links.slice(0, limit).map((link) => ({
          url: link.url,
          ...(link.title !== undefined ? { title: link.title } : {}),
          ...(link.description !== undefined ? { description: link.description } : {}),
        })),
      };
    },
  );

  app.post<{ Body: V2SearchRequest }>(
    '/search',
    {
      schema: {
        tags,
        summary: 'Search the web, optionally scraping the results (Firecrawl v2)',
        body: v2SearchRequestSchema,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const refusals: Refusal[] = [];
      if (body.categories !== undefined && body.categories.length > 0)
        refusals.push({ field: 'categories', message: `Search categories are ${NOT_HERE.slice(3)}` });
      if (body.includeDomains?.length && body.excludeDomains?.length)
        refusals.push({ field: 'includeDomains', message: 'includeDomains and excludeDomains cannot both be given' });
      if (body.tbs !== undefined && !Object.hasOwn(TBS_RANGES, body.tbs))
        refusals.push({ field: 'tbs', message: `tbs '${body.tbs}' ${NOT_HERE}; qdr:d, qdr:w, qdr:m and qdr:y are` });
      const formats = body.scrapeOptions?.formats ?? [];
      const scrape = formats.length > 0 ? mapScrapeOptions(body.scrapeOptions ?? {}, 'scrapeOptions') : undefined;
      if (scrape) refusals.push(...scrape.refusals, ...scrapeOnlyRefusals(scrape));
      if (refusals.length > 0) throw refusalError(refusals);

      const signal = hangUpSignal(reply);
      const limit = body.limit ?? SEARCH_LIMITS.defaultLimit;
      const named = (body.sources ?? ['web']).map((s) => (typeof s === 'string' ? s : s.type));
      const searchable = named.filter((s) => s !== 'alexandria');
      const sources = [...new Set(searchable.length > 0 ? searchable : ['web' as const])];
      const lang = body.lang;
      const country = body.country !== undefined && /^[A-Za-z]{2}$/.test(body.country) ? body.country : undefined;
      const base = requestBaseUrl(request, deps.publicUrl);
      const data: Record<string, unknown[]> = {};
      let id: string | undefined;
      let credits = 0;
      const renames: Array<[string, string]> = [
        ['timeRange', 'tbs'],
        ...(scrape?.renames ?? []).map(([from, to]): [string, string] => [`scrape_options.${from}`, to]),
      ];
      for (const source of sources) {
        const result = await inV2Words(renames, () =>
          deps.search.search(
            ownerOf(request),
            {
              query: body.query,
              limit,
              sources: source,
              ...(lang !== undefined && LANGUAGE_TAG.test(lang) ? { lang } : {}),
              ...(country !== undefined ? { country } : {}),
              ...(body.tbs !== undefined ? { timeRange: TBS_RANGES[body.tbs] } : {}),
              ...(scrape ? { scrape_options: scrape.page } : {}),
            },
            signal,
          ),
        );
        id ??= result.job_id;
        const kept = result.results.filter(
          (item) =>
            (body.includeDomains === undefined || hostMatches(item.url, body.includeDomains)) &&
            (body.excludeDomains === undefined || !hostMatches(item.url, body.excludeDomains)),
        );
        credits += kept.length;
        data[source] = kept.map((item, index) => searchItem(source, item, index + 1, base, scrape !== undefined));
      }
      return { success: true, data, creditsUsed: credits, ...(id !== undefined ? { id } : {}) };
    },
  );
}

/** One search result in Firecrawl's shape for its source; a scraped web result carries its document's fields. */
function searchItem(
  source: string,
  item: SearchResultItem,
  position: number,
  baseUrl: string,
  scraped: boolean,
): Record<string, unknown> {
  if (source === 'images') {
    const image =
      typeof item.img_src === 'string' ? item.img_src : typeof item.image_url === 'string' ? item.image_url : undefined;
    return { title: item.title, url: item.url, ...(image !== undefined ? { imageUrl: image } : {}), position };
  }
  if (source === 'news') {
    const date = typeof item.published_date === 'string' ? item.published_date : undefined;
    return {
      title: item.title,
      url: item.url,
      snippet: item.description,
      ...(date !== undefined ? { date } : {}),
      position,
    };
  }
  const base = { url: item.url, title: item.title, description: item.description, position };
  if (!scraped) return base;
  if (item.status === 'failed') {
    return {
      ...base,
      metadata: {
        sourceURL: item.url,
        url: item.url,
        statusCode: 0,
        proxyUsed: 'basic',
        error: typeof item.error === 'string' ? item.error : 'The result could not be scraped',
      },
    };
  }
  const { url: _url, title: _title, description: _description, source: _source, ...page } = item;
  void _url;
  void _title;
  void _description;
  void _source;
  return { ...base, ...toFirecrawlDocument({ url: item.url, ...page }, baseUrl) };
}
