// Request schema of crawl creation (docs/api.md, "POST /v1/crawl") and the options a crawl runs with.
import { z } from 'zod';
import type { TemplateRef } from '../domain/template-ref.js';
import {
  ENGINES,
  type Engine,
  type PageOptions,
  httpUrl,
  pageOptionsSchema,
  pageOptionsShape,
  resolvePageOptions,
} from '../scrape/schema.js';
import type { ValidationIssue } from '../domain/errors.js';
import { type Capabilities, unsupportedOptions } from '../scrape/capabilities.js';
import { PATH_RULE_LIMITS, pathListProblem, pathPatternProblem, type Strategy } from './scope/index.js';

export const STRATEGIES = ['all', 'same-domain', 'same-hostname', 'same-origin'] as const;
export const MAX_CRAWL_LIMIT = 100_000;
/** Pages a crawl visits at most when its request gives no `limit`. */
export const DEFAULT_CRAWL_LIMIT = 100;
export const MAX_CRAWL_DEPTH = 100;

/** A list of path rules: each pattern checked on its own index, then the list as a whole (docs/crawl-scope.md). */
const pathRules = z
  .array(
    z
      .string()
      .min(1)
      .max(PATH_RULE_LIMITS.maxPatternLength)
      .superRefine((pattern, ctx) => {
        const problem = pathPatternProblem(pattern);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      }),
  )
  .max(PATH_RULE_LIMITS.maxPatterns)
  .superRefine((patterns, ctx) => {
    const problem = pathListProblem(patterns);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

export const crawlRequestSchema = z
  .strictObject({
    url: httpUrl,
    template_id: z.string().min(1).max(255).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
    engine: z.enum(ENGINES).optional(),
    exclude_paths: pathRules.optional(),
    include_paths: pathRules.optional(),
    scrape_paths: pathRules.optional(),
    max_depth: z.number().int().min(0).max(MAX_CRAWL_DEPTH).optional(),
    strategy: z.enum(STRATEGIES).optional(),
    limit: z.number().int().min(1).max(MAX_CRAWL_LIMIT).optional(),
    retry: z.boolean().optional(),
    scrape_options: pageOptionsSchema.optional(),
    ...pageOptionsShape,
  })
  .meta({ id: 'CrawlRequest' });
export type CrawlRequest = z.infer<typeof crawlRequestSchema>;

/**
 * What each page of a job on the frontier runs with, defaults applied: a crawl's pages and a batch scrape's
 * (src/batch/) alike. Stored with the job (`resolved`) so a restart resumes it as it was.
 */
export interface PageJobOptions {
  engine: Engine;
  /** Try a page again on a network error, timeout, engine fault, 429 or 5xx (scrape/retry-policy.ts). */
  retry: boolean;
  page: PageOptions;
  /** The template (and version) the request was expanded from: named in the status and each result's metadata. */
  template?: TemplateRef;
}

/** Everything a crawl runs with, defaults applied; stored with the job so a restart resumes it as it was. */
export interface CrawlOptions extends PageJobOptions {
  seed: string;
  strategy: Strategy;
  maxDepth: number;
  limit: number;
  includePaths?: string[];
  excludePaths?: string[];
  scrapePaths?: string[];
  /** Absent: globs. `regex`: include/exclude paths are regular expressions (a crawl started through /v2). */
  pathSyntax?: 'glob' | 'regex';
  regexOnFullUrl?: boolean;
  /** Only links under this path are visited (a /v2 crawl without crawlEntireDomain). */
  pathPrefix?: string;
}

/** What a crawl started through Firecrawl's /v2 adds to a /v1 request: its path rules are regexes (src/firecrawl). */
export interface CrawlRuleOverrides {
  includeRegexes?: string[];
  excludeRegexes?: string[];
  regexOnFullUrl?: boolean;
  pathPrefix?: string;
}

/**
 * Per-page options: top-level fields, overridden field by field by scrape_options (docs/api.md, "POST /v1/crawl":
 * scrape_options).
 */
export function resolveCrawlOptions(request: CrawlRequest): CrawlOptions {
  const {
    url,
    scrape_options,
    template_id,
    variables,
    exclude_paths,
    include_paths,
    scrape_paths,
    max_depth,
    strategy,
    limit,
    retry,
    engine,
    ...topLevelPage
  } = request;
  void template_id;
  void variables;
  const merged = { ...topLevelPage };
  for (const [key, value] of Object.entries(scrape_options ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return {
    seed: url,
    engine: engine ?? 'auto',
    strategy: strategy ?? 'same-domain',
    maxDepth: max_depth ?? 10,
    limit: limit ?? DEFAULT_CRAWL_LIMIT,
    includePaths: include_paths,
    excludePaths: exclude_paths,
    scrapePaths: scrape_paths,
    retry: retry ?? false,
    page: resolvePageOptions({ ...merged, engine }),
  };
}

/**
 * What creating this crawl refuses beyond its schema: an unknown template (templates do not exist
 * yet, so every id is unknown), then options this deployment cannot serve (field paths as given
 * by unsupportedOptions, unprefixed).
 */
export function crawlRefusals(request: CrawlRequest, options: CrawlOptions, caps: Capabilities): ValidationIssue[] {
  if (request.template_id !== undefined) {
    return [{ field: 'template_id', code: 'custom', message: `Template '${request.template_id}' not found` }];
  }
  return unsupportedOptions(options.page, caps);
}
