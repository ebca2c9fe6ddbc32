// Firecrawl's v2 scrape options (camelCase, object formats) checked with this service's own field rules, and turned
// into the /v1 page options they stand for (docs/firecrawl.md). The limits are the /v1 ones: same validators.
import { z } from 'zod';
import { toValidationIssues } from '../domain/zod-issues.js';
import { actionsSchema, MAX_ACTIONS } from '../scrape/actions-schema.js';
import { MAX_TIMEOUT_MS, pageOptionsShape, type PageOptionsInput } from '../scrape/schema.js';

/** Formats of Firecrawl's client that have no equivalent here: refused with a 400 that says so. */
const NOT_OFFERED_FORMATS = [
  'attributes',
  'branding',
  'product',
  'menu',
  'audio',
  'video',
  'question',
  'highlights',
  'query',
] as const;

const STRING_FORMATS = [
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  'summary',
  'screenshot',
  'json',
  'changeTracking',
  ...NOT_OFFERED_FORMATS,
] as const;

const jsonFormat = z.strictObject({
  type: z.literal('json'),
  schema: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().max(10_000).optional(),
  checkPromptInjection: z.boolean().optional(),
});

const screenshotFormat = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().optional(),
  quality: z.number().min(0).max(100).optional(),
  viewport: z.strictObject({ width: z.number().int().min(1), height: z.number().int().min(1) }).optional(),
});

const changeTrackingFormat = z.strictObject({
  type: z.literal('changeTracking'),
  modes: z
    .array(z.enum(['git-diff', 'json']))
    .max(2)
    .optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().max(10_000).optional(),
  tag: z.string().max(200).nullable().optional(),
});

/**
 * The formats not offered here, as objects: refused below as their string names are. The offered ones must pass their
 * own strict schemas above (a loose catch-all would let `{type: 'json', prompt: 5}` through unchecked).
 */
const otherFormat = z.looseObject({ type: z.enum(NOT_OFFERED_FORMATS) });

const formatOption = z.union([z.enum(STRING_FORMATS), jsonFormat, screenshotFormat, changeTrackingFormat, otherFormat]);
export type FormatOption = z.infer<typeof formatOption>;

const proxyOption = z.union([z.enum(['basic', 'auto', 'stealth', 'enhanced']), pageOptionsShape.proxy.unwrap()]);

/** Fields Firecrawl's clients send that change nothing here; accepted so those clients work (docs/firecrawl.md). */
const acceptedWithoutEffect = {
  skipTlsVerification: z.boolean().optional(),
  removeBase64Images: z.boolean().optional(),
  blockAds: z.boolean().optional(),
  fastMode: z.boolean().optional(),
  parsers: z
    .array(z.union([z.string().max(50), z.looseObject({ type: z.string().max(50) })]))
    .max(10)
    .optional(),
  location: z
    .strictObject({
      country: z.string().max(10).optional(),
      languages: z.array(z.string().max(35)).max(20).optional(),
    })
    .optional(),
  integration: z.string().max(100).optional(),
  origin: z.string().max(100).optional(),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
  domainTools: z.literal(false).optional(),
  zeroDataRetention: z.literal(false).optional(),
  redactPII: z.literal(false).optional(),
  lockdown: z.literal(false).optional(),
};

export const v2ScrapeOptionsShape = {
  formats: z.array(formatOption).max(20).optional(),
  onlyMainContent: pageOptionsShape.only_main_content,
  includeTags: pageOptionsShape.include_tags,
  excludeTags: pageOptionsShape.exclude_tags,
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  waitFor: pageOptionsShape.wait_for,
  maxAge: pageOptionsShape.max_age,
  minAge: z.number().int().min(0).optional(),
  storeInCache: pageOptionsShape.store_in_cache,
  headers: pageOptionsShape.headers,
  actions: z
    .array(z.looseObject({ type: z.string().max(50) }))
    .max(MAX_ACTIONS)
    .optional(),
  proxy: proxyOption.optional(),
  mobile: z.boolean().optional(),
  ...acceptedWithoutEffect,
};

export const v2ScrapeOptionsSchema = z.strictObject(v2ScrapeOptionsShape);
export type V2ScrapeOptions = z.infer<typeof v2ScrapeOptionsSchema>;

/** One refusal of a value the schema accepts, with its v2 field path. */
export interface Refusal {
  field: string;
  message: string;
}

/** The /v1 page options a v2 request stands for, and how to say a /v1 field's problem in the v2 request's words. */
export interface MappedPageOptions {
  page: PageOptionsInput;
  /** Refusals found while mapping (formats and options with no equivalent here); a 400 when any. */
  refusals: Refusal[];
  /** /v1 field path prefix -> v2 field path prefix, longest first. */
  renames: Array<[string, string]>;
  /**
   * The changeTracking format (compared after the scrape, src/firecrawl/change-tracking.ts): its v2 field, modes and
   * tag; `jsonAdded` when its json mode added a `json` format the client did not ask for (left out of the answer).
   */
  changeTracking?: { field: string; modes: Array<'git-diff' | 'json'>; tag: string; jsonAdded: boolean };
}

const NOT_HERE = 'is not offered by this server (docs/firecrawl.md lists what is)';

/**
 * Maps v2 scrape options onto /v1 page options. `at` is the v2 path of the options object ('' at the top, else
 * `scrapeOptions`) for the refusals and renames.
 */
export function mapScrapeOptions(options: V2ScrapeOptions, at = ''): MappedPageOptions {
  const path = (field: string) => (at ? `${at}.${field}` : field);
  const refusals: Refusal[] = [];
  const renames: Array<[string, string]> = [];
  const formats: NonNullable<PageOptionsInput['formats']> = [];
  let jsonOptions: PageOptionsInput['json_options'];
  let tracking: z.infer<typeof changeTrackingFormat> | undefined;
  let trackingField = '';

  (options.formats ?? ['markdown']).forEach((format, i) => {
    const type = typeof format === 'string' ? format : format.type;
    const v2Field = path(`formats.${i}`);
    if (type === 'changeTracking') {
      tracking =
        typeof format === 'string' ? { type: 'changeTracking' } : (format as z.infer<typeof changeTrackingFormat>);
      trackingField = v2Field;
      return;
    }
    if ((NOT_OFFERED_FORMATS as readonly string[]).includes(type)) {
      refusals.push({ field: v2Field, message: `Format '${type}' ${NOT_HERE}` });
      return;
    }
    if (type === 'json') {
      if (typeof format === 'string' || !('type' in format) || format.type !== 'json') {
        refusals.push({ field: v2Field, message: "Format 'json' must be an object: { type: 'json', schema, prompt }" });
        return;
      }
      const json = format as z.infer<typeof jsonFormat>;
      jsonOptions = {
        ...(json.schema !== undefined ? { schema: json.schema } : {}),
        ...(json.prompt !== undefined ? { user_prompt: json.prompt } : {}),
      };
      renames.push(['json_options', v2Field]);
    }
    let v1: NonNullable<PageOptionsInput['formats']>[number];
    if (type === 'screenshot') {
      const fullPage = typeof format === 'object' && 'fullPage' in format && format.fullPage === true;
      v1 = fullPage ? 'screenshot@fullPage' : 'screenshot';
    } else {
      v1 = type as 'markdown' | 'html' | 'rawHtml' | 'links' | 'images' | 'summary' | 'json';
    }
    if (formats.includes(v1)) return; // a repeat asks for nothing more
    renames.push([`formats.${formats.length}`, v2Field]);
    formats.push(v1);
  });
  let changeTracking: MappedPageOptions['changeTracking'];
  if (tracking !== undefined) {
    const modes = tracking.modes ?? [];
    let jsonAdded = false;
    if (!formats.includes('markdown')) {
      refusals.push({ field: trackingField, message: 'The changeTracking format needs the markdown format too' });
    }
    if (modes.includes('json') && jsonOptions === undefined) {
      if (tracking.schema === undefined && (tracking.prompt ?? '').trim() === '') {
        refusals.push({ field: trackingField, message: "changeTracking's json mode needs a schema or a prompt" });
      } else {
        jsonOptions = {
          ...(tracking.schema !== undefined ? { schema: tracking.schema } : {}),
          ...(tracking.prompt !== undefined ? { user_prompt: tracking.prompt } : {}),
        };
        renames.push(['json_options', trackingField]);
        formats.push('json');
        jsonAdded = true;
      }
    }
    changeTracking = { field: trackingField, modes, tag: tracking.tag ?? '', jsonAdded };
  }
  if (formats.length === 0 && refusals.length === 0) {
    refusals.push({ field: path('formats'), message: 'At least one format is needed' });
  }

  const actions = mapActions(options.actions ?? [], path, refusals, renames);
  let proxy: string | undefined;
  if (options.proxy === 'stealth' || options.proxy === 'enhanced') {
    refusals.push({
      field: path('proxy'),
      message: `Proxy '${options.proxy}' ${NOT_HERE}; 'basic' and 'auto' fetch directly (or through OUTBOUND_PROXY), or give a proxy URL`,
    });
  } else if (options.proxy !== undefined && options.proxy !== 'basic' && options.proxy !== 'auto') {
    proxy = options.proxy;
  }

  const page: PageOptionsInput = {
    formats,
    only_main_content: options.onlyMainContent ?? true,
    ...(options.includeTags !== undefined ? { include_tags: options.includeTags } : {}),
    ...(options.excludeTags !== undefined ? { exclude_tags: options.excludeTags } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.waitFor !== undefined && options.waitFor > 0 ? { wait_for: options.waitFor } : {}),
    // changeTracking compares what the page is now: a cached copy would read as `same` (unless maxAge is given).
    ...(options.maxAge !== undefined
      ? { max_age: options.maxAge }
      : changeTracking !== undefined
        ? { max_age: 0 }
        : {}),
    ...(options.storeInCache !== undefined ? { store_in_cache: options.storeInCache } : {}),
    ...(proxy !== undefined ? { proxy } : {}),
    ...(jsonOptions !== undefined ? { json_options: jsonOptions } : {}),
    ...(actions.length > 0 ? { actions } : {}),
    ...(options.mobile === true ? { mobile: true } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
  };
  for (const [v1, v2] of [
    ['only_main_content', 'onlyMainContent'],
    ['include_tags', 'includeTags'],
    ['exclude_tags', 'excludeTags'],
    ['wait_for', 'waitFor'],
    ['max_age', 'maxAge'],
    ['store_in_cache', 'storeInCache'],
    ['timeout', 'timeout'],
    ['proxy', 'proxy'],
    ['mobile', 'mobile'],
    ['headers', 'headers'],
    ['formats', 'formats'],
  ] as const) {
    renames.push([v1, path(v2)]);
  }
  return { page, refusals, renames: sortRenames(renames), ...(changeTracking ? { changeTracking } : {}) };
}

/** Firecrawl's action types and the /v1 names they have here (docs/api.md, "Browser actions"). */
const V1_ACTION_TYPE: Record<string, string> = {
  wait: 'wait',
  click: 'click',
  write: 'write',
  press: 'press',
  scroll: 'scroll',
  screenshot: 'screenshot',
  scrape: 'scrape',
  executeJavascript: 'execute_javascript',
};

/**
 * Firecrawl's actions as /v1 actions, checked by the /v1 schema here (its issues said in the v2 field names; the v2
 * scrape service trusts its typed input): `executeJavascript` and `fullPage` renamed, a screenshot's `quality`
 * accepted without effect (screenshots are PNG), `pdf` and a screenshot `viewport` refused.
 */
function mapActions(
  actions: ReadonlyArray<Record<string, unknown> & { type: string }>,
  path: (field: string) => string,
  refusals: Refusal[],
  renames: Array<[string, string]>,
): NonNullable<PageOptionsInput['actions']> {
  const mapped: Array<Record<string, unknown>> = [];
  actions.forEach((action, i) => {
    const at = path(`actions.${i}`);
    const { type, fullPage, quality, viewport, ...rest } = action;
    if (type === 'pdf') {
      refusals.push({ field: `${at}.type`, message: `The pdf action ${NOT_HERE}` });
      return;
    }
    const v1Type = V1_ACTION_TYPE[type];
    if (v1Type === undefined) {
      refusals.push({
        field: `${at}.type`,
        message: `Unknown action type '${type}': one of ${Object.keys(V1_ACTION_TYPE).join(', ')}`,
      });
      return;
    }
    const v1: Record<string, unknown> = { type: v1Type, ...rest };
    if (type === 'screenshot') {
      if (viewport !== undefined)
        refusals.push({ field: `${at}.viewport`, message: `A screenshot viewport ${NOT_HERE}` });
      if (quality !== undefined && (typeof quality !== 'number' || quality < 0 || quality > 100))
        refusals.push({ field: `${at}.quality`, message: 'quality is a number from 0 to 100' });
      if (fullPage !== undefined) v1.full_page = fullPage;
    } else {
      // Fields of other action types: the /v1 schema refuses them under their v2 names.
      if (fullPage !== undefined) v1.fullPage = fullPage;
      if (quality !== undefined) v1.quality = quality;
      if (viewport !== undefined) v1.viewport = viewport;
    }
    renames.push([`actions.${mapped.length}.full_page`, `${at}.fullPage`], [`actions.${mapped.length}`, at]);
    mapped.push(v1);
  });
  renames.push(['actions', path('actions')]);
  // The /v1 rules of actions, said in the v2 request's field names.
  const checked = actionsSchema.safeParse(mapped);
  if (checked.success) return checked.data;
  const ordered = sortRenames(renames);
  for (const issue of toValidationIssues(checked.error.issues)) {
    const v1Field = issue.field === '' ? 'actions' : `actions.${issue.field}`;
    refusals.push({ field: renameField(v1Field, ordered), message: issue.message });
  }
  return [];
}

/** The refusal of changeTracking where only /v2/scrape offers it (crawl, batch, search, extract, parse). */
export function scrapeOnlyRefusals(mapped: MappedPageOptions): Refusal[] {
  return mapped.changeTracking === undefined
    ? []
    : [{ field: mapped.changeTracking.field, message: 'The changeTracking format is offered on /v2/scrape only' }];
}

/** Longest /v1 prefix first, so `formats.1` is renamed before `formats`. */
export function sortRenames(renames: Array<[string, string]>): Array<[string, string]> {
  return [...renames].sort((a, b) => b[0].length - a[0].length);
}

/** A /v1 field path said in the v2 request's words (unchanged when no rename applies). */
export function renameField(field: string, renames: ReadonlyArray<[string, string]>): string {
  for (const [from, to] of renames) {
    if (field === from) return to;
    if (field.startsWith(`${from}.`)) return `${to}${field.slice(from.length)}`;
  }
  return field;
}
