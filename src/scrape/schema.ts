// Request schemas of the scrape operation; the per-page option shapes are shared with crawls.
import { z } from 'zod';
import { isValidCssSelector } from './extract/index.js';
import { type ActionInput, actionsSchema } from './actions-schema.js';
import { headersSchema, normalizedHeaders } from './headers-schema.js';

export const FORMATS = [
  'markdown',
  'html',
  'text',
  'screenshot',
  'screenshot@fullPage',
  'rawHtml',
  'json',
  'summary',
  'links',
  'images',
] as const;
export type Format = (typeof FORMATS)[number];
export const ENGINES = ['auto', 'cheerio', 'playwright', 'puppeteer'] as const;
export type Engine = (typeof ENGINES)[number];
export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'commit'] as const;

export const MAX_TIMEOUT_MS = 300_000;

/** An absolute http(s) URL with a host: scrape targets and crawl seeds. */
export const httpUrl = z
  .string()
  .trim()
  .min(1)
  .max(8192)
  .refine(
    (value) => {
      try {
        const u = new URL(value);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { message: 'Must be an absolute http:// or https:// URL' },
  );

const proxyUrl = z.string().refine(
  (value) => {
    try {
      const u = new URL(value);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  },
  { message: 'Must be an http:// or https:// proxy URL' },
);

const selector = z
  .string()
  .min(1)
  .max(1000)
  .refine((s) => isValidCssSelector(s), { message: 'Not a valid CSS selector' });

export const selectorList = z.array(selector).max(100);

const waitForSelectorEntry = z.union([
  z.string().min(1).max(1000),
  z.strictObject({
    selector: z.string().min(1).max(1000),
    state: z.enum(['attached', 'visible', 'hidden', 'detached']).optional(),
    timeout: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional(),
  }),
]);

const jsonOptions = z.strictObject({
  schema: z.record(z.string(), z.unknown()).optional(),
  user_prompt: z.string().max(10_000).optional(),
  schema_name: z.string().max(255).optional(),
  schema_description: z.string().max(10_000).optional(),
});

/** Per-page options: the fields of POST /v1/scrape in docs/api.md (the scrape_options of a crawl). */
export const pageOptionsShape = {
  formats: z
    .array(z.enum(FORMATS))
    .min(1)
    .max(FORMATS.length)
    .refine((f) => new Set(f).size === f.length, { message: 'Formats must not repeat' })
    .optional(),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  wait_for: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional(),
  wait_until: z.enum(WAIT_UNTIL).optional(),
  wait_for_selector: z
    .union([waitForSelectorEntry, z.array(waitForSelectorEntry).min(1).max(20)])
    .superRefine((value, ctx) => {
      // Checked after the shape so a bad selector is reported as such, not as a union mismatch;
      // Chromium would only fail it at render time (Puppeteer after the whole timeout).
      const entries = Array.isArray(value) ? value : [value];
      entries.forEach((entry, i) => {
        const css = typeof entry === 'string' ? entry : entry.selector;
        if (isValidCssSelector(css)) return;
        const at = Array.isArray(value) ? [i] : [];
        ctx.addIssue({
          code: 'custom',
          path: typeof entry === 'string' ? at : [...at, 'selector'],
          message: 'Not a valid CSS selector',
        });
      });
    })
    .optional(),
  include_tags: selectorList.optional(),
  exclude_tags: selectorList.optional(),
  only_main_content: z.boolean().optional(),
  proxy: proxyUrl.optional(),
  json_options: jsonOptions.optional(),
  extract_source: z.enum(['markdown', 'html']).optional(),
  ocr_options: z.boolean().optional(),
  max_age: z.number().int().min(0).optional(),
  store_in_cache: z.boolean().optional(),
  actions: actionsSchema.optional(),
  mobile: z.boolean().optional(),
  headers: headersSchema.optional(),
};

export const pageOptionsSchema = z.strictObject(pageOptionsShape);
export type PageOptionsInput = z.infer<typeof pageOptionsSchema>;

export const scrapeRequestSchema = z
  .strictObject({
    url: httpUrl,
    // A template to expand (docs/templates.md); replaced by the request it stands for before this schema runs.
    template_id: z.string().min(1).max(255).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
    engine: z.enum(ENGINES).optional(),
    // As AnyCrawl accepts it: the crawl's retry policy for this one page (scrape/retry-policy.ts).
    retry: z.boolean().optional(),
    ...pageOptionsShape,
  })
  .meta({ id: 'ScrapeRequest' });
export type ScrapeRequest = z.infer<typeof scrapeRequestSchema>;

/** Options with every default applied, as the pipeline consumes them. */
export interface PageOptions {
  engine: Engine;
  formats: Format[];
  timeoutMs: number;
  waitFor?: number;
  waitUntil?: (typeof WAIT_UNTIL)[number];
  waitForSelector?: PageOptionsInput['wait_for_selector'];
  includeTags?: string[];
  excludeTags?: string[];
  onlyMainContent: boolean;
  proxy?: string;
  jsonOptions?: PageOptionsInput['json_options'];
  extractSource: 'markdown' | 'html';
  ocr: boolean;
  maxAgeMs?: number;
  storeInCache: boolean;
  /** Browser actions (validated); empty when none. */
  actions: ActionInput[];
  /** Phone emulation in a browser; a phone's user agent over plain HTTP. */
  mobile: boolean;
  /** Request headers for the target (lower-case names); absent when none. */
  headers?: Record<string, string>;
}

export function resolvePageOptions(input: PageOptionsInput & { engine?: Engine }): PageOptions {
  return {
    engine: input.engine ?? 'auto',
    formats: input.formats ?? ['markdown'],
    timeoutMs: input.timeout ?? 60_000,
    waitFor: input.wait_for,
    waitUntil: input.wait_until,
    waitForSelector: input.wait_for_selector,
    includeTags: input.include_tags,
    excludeTags: input.exclude_tags,
    onlyMainContent: input.only_main_content ?? true,
    proxy: input.proxy,
    jsonOptions: input.json_options,
    extractSource: input.extract_source ?? 'markdown',
    ocr: input.ocr_options ?? false,
    maxAgeMs: input.max_age,
    storeInCache: input.store_in_cache ?? true,
    actions: input.actions ?? [],
    mobile: input.mobile ?? false,
    headers: normalizedHeaders(input.headers),
  };
}
