// Firecrawl's v2 crawl request checked with this service's limits, and turned into the /v1 crawl it stands for:
// regex path rules, strategy from allowSubdomains/allowExternalLinks, the seed's path unless crawlEntireDomain.
import { z } from 'zod';
import type { CrawlRequest, CrawlRuleOverrides } from '../crawl/schema.js';
import { MAX_CRAWL_DEPTH, MAX_CRAWL_LIMIT } from '../crawl/schema.js';
import { PATH_RULE_LIMITS } from '../crawl/scope/index.js';
import { regexListProblem, regexRuleProblem } from '../crawl/scope/path-regex.js';
import { httpUrl } from '../scrape/schema.js';
import {
  mapScrapeOptions,
  type Refusal,
  scrapeOnlyRefusals,
  sortRenames,
  v2ScrapeOptionsSchema,
} from './scrape-options.js';

/** Firecrawl's default page limit of a crawl (its documented default; this server's maximum is MAX_CRAWL_LIMIT). */
export const V2_DEFAULT_CRAWL_LIMIT = 10_000;

/** A list of regex path rules, each checked on its own index and then as a list. */
export const regexRules = z
  .array(
    z
      .string()
      .min(1)
      .max(PATH_RULE_LIMITS.maxPatternLength)
      .superRefine((rule, ctx) => {
        const problem = regexRuleProblem(rule);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      }),
  )
  .max(PATH_RULE_LIMITS.maxPatterns)
  .superRefine((rules, ctx) => {
    const problem = regexListProblem(rules);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

const webhookOption = z.union([z.string().max(8192), z.looseObject({ url: z.string().max(8192) })]);

export const v2CrawlRequestSchema = z
  .strictObject({
    url: httpUrl,
    prompt: z.string().max(10_000).nullable().optional(),
    includePaths: regexRules.nullable().optional(),
    excludePaths: regexRules.nullable().optional(),
    maxDiscoveryDepth: z.number().int().min(0).max(MAX_CRAWL_DEPTH).nullable().optional(),
    // Accepted and, like maxDiscoveryDepth, a hop count here (older clients send it).
    maxDepth: z.number().int().min(0).max(MAX_CRAWL_DEPTH).optional(),
    sitemap: z.enum(['skip', 'include', 'only']).optional(),
    ignoreQueryParameters: z.boolean().optional(),
    deduplicateSimilarURLs: z.boolean().optional(),
    limit: z.number().int().min(1).max(MAX_CRAWL_LIMIT).nullable().optional(),
    crawlEntireDomain: z.boolean().optional(),
    allowExternalLinks: z.boolean().optional(),
    allowSubdomains: z.boolean().optional(),
    ignoreRobotsTxt: z.boolean().optional(),
    robotsUserAgent: z.string().max(500).nullable().optional(),
    delay: z.number().min(0).nullable().optional(),
    maxConcurrency: z.number().int().min(1).nullable().optional(),
    webhook: webhookOption.nullable().optional(),
    scrapeOptions: v2ScrapeOptionsSchema.nullable().optional(),
    regexOnFullURL: z.boolean().optional(),
    zeroDataRetention: z.boolean().optional(),
    integration: z.string().max(100).optional(),
    origin: z.string().max(100).optional(),
  })
  .meta({ id: 'FirecrawlCrawlRequest' });
export type V2CrawlRequest = z.infer<typeof v2CrawlRequestSchema>;

export interface MappedCrawl {
  request: CrawlRequest;
  rules: CrawlRuleOverrides;
  refusals: Refusal[];
  renames: Array<[string, string]>;
}

const NOT_HERE = 'is not offered by this server (docs/firecrawl.md lists what is)';

/** The seed's path, which every visited link's path must start with (as Firecrawl does), or undefined at the root. */
function seedPath(url: string): string | undefined {
  const path = new URL(url).pathname;
  return path === '/' || path === '' ? undefined : path;
}

export function mapCrawlRequest(body: V2CrawlRequest): MappedCrawl {
  const refusals: Refusal[] = [];
  const scrape = mapScrapeOptions(body.scrapeOptions ?? {}, 'scrapeOptions');
  refusals.push(...scrape.refusals, ...scrapeOnlyRefusals(scrape));
  if (body.prompt !== undefined && body.prompt !== null && body.prompt.trim() !== '')
    refusals.push({
      field: 'prompt',
      message: `Crawl options from a prompt are ${NOT_HERE.slice(3)}; give them explicitly`,
    });
  if (body.sitemap === 'only')
    refusals.push({
      field: 'sitemap',
      message: `sitemap 'only' ${NOT_HERE}; use POST /v2/map for a site's sitemap URLs`,
    });
  if (body.ignoreRobotsTxt === true)
    refusals.push({ field: 'ignoreRobotsTxt', message: 'This server always follows robots.txt when crawling' });
  if (body.robotsUserAgent !== undefined && body.robotsUserAgent !== null)
    refusals.push({
      field: 'robotsUserAgent',
      message: 'This server reads robots.txt as its own user agent (USER_AGENT)',
    });
  if (body.delay !== undefined && body.delay !== null && body.delay > 0)
    refusals.push({ field: 'delay', message: `A per-crawl delay ${NOT_HERE}; the server paces each host itself` });
  if (body.webhook !== undefined && body.webhook !== null)
    refusals.push({
      field: 'webhook',
      message: `A per-crawl webhook ${NOT_HERE}; subscribe to crawl events with POST /v1/webhooks`,
    });
  if (body.zeroDataRetention === true)
    refusals.push({ field: 'zeroDataRetention', message: `zeroDataRetention ${NOT_HERE}` });

  const strategy =
    body.allowExternalLinks === true ? 'all' : body.allowSubdomains === true ? 'same-domain' : 'same-hostname';
  const prefix = body.crawlEntireDomain === true || strategy === 'all' ? undefined : seedPath(body.url);
  const request: CrawlRequest = {
    url: body.url,
    strategy,
    max_depth: body.maxDiscoveryDepth ?? body.maxDepth ?? MAX_CRAWL_DEPTH,
    limit: body.limit ?? V2_DEFAULT_CRAWL_LIMIT,
    scrape_options: scrape.page,
  };
  const rules: CrawlRuleOverrides = {
    ...(body.includePaths ? { includeRegexes: body.includePaths } : {}),
    ...(body.excludePaths ? { excludeRegexes: body.excludePaths } : {}),
    regexOnFullUrl: body.regexOnFullURL === true,
    ...(prefix !== undefined ? { pathPrefix: prefix } : {}),
  };
  const renames = sortRenames([
    // A crawl's page options are checked merged (unprefixed fields), as /v1 reports them.
    ...scrape.renames,
    ['max_depth', 'maxDiscoveryDepth'],
  ]);
  return { request, rules, refusals, renames };
}
