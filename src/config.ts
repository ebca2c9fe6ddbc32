// Every deployment setting, read from the environment, validated, with its default.
import path from 'node:path';
import { z } from 'zod';
import { bundledLangPath, missingLanguageFiles, type OcrConfig } from './ocr/settings.js';
import { parseAllowlistEntry } from './net/proxy-policy.js';
import { DEFAULT_EXTRACTOR_LIMITS, defaultExtractThreads } from './scrape/extractor.js';
import { LLM_DEFAULTS, type LlmSettings } from './scrape/structured/llm/settings.js';
import { isSchemaName } from './store/postgres.js';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      try {
        const u = new URL(v);
        if (!protocols.includes(u.protocol)) throw new Error('protocol');
        return v.replace(/\/+$/, '');
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a URL starting with ${protocols.join(' or ')}//` });
        return z.NEVER;
      }
    });

/** REQUEST_PROXY_ALLOWLIST: comma-separated host:port entries, normalized (see parseAllowlistEntry). */
const proxyAllowlist = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const entries = (v ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e.length > 0);
    const out: string[] = [];
    for (const entry of entries) {
      const parsed = parseAllowlistEntry(entry);
      if (parsed === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `entry ${JSON.stringify(entry)} is not host:port (e.g. 10.0.0.5:3128 or [fd00::5]:3128)`,
        });
        return z.NEVER;
      }
      out.push(parsed);
    }
    return out;
  });

const envSchema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z
    .string()
    .optional()
    .transform((v) => v || '0.0.0.0'),
  DATA_DIR: z
    .string()
    .optional()
    .transform((v) => path.resolve(v || './data')),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:', 'sqlite:', 'file:']),
  // A PostgreSQL identifier written unquoted: lower case, so that psql users can name it as it is.
  DATABASE_SCHEMA: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || isSchemaName(v),
      'must be a lower-case PostgreSQL name: a-z, 0-9 and _, not starting with a digit, at most 63 characters',
    ),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  API_KEYS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k.length > 0),
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .optional()
    .transform((v) => v ?? 'info'),
  ALLOW_LOCAL_TARGETS: bool(false),
  ALLOW_LOCAL_WEBHOOKS: bool(false),
  OUTBOUND_PROXY: optionalUrl(['http:', 'https:']),
  REQUEST_PROXY_ALLOWLIST: proxyAllowlist,
  USER_AGENT: z
    .string()
    .optional()
    .transform((v) => v || 'CrawlService/0.1 (+https://github.com/crawlservice)'),
  SCRAPE_MAX_BYTES: int(10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  SCRAPE_MAX_REDIRECTS: int(10, 0, 50),
  CACHE_DEFAULT_MAX_AGE_MS: int(2 * 24 * 3600 * 1000, 0, 365 * 24 * 3600 * 1000),
  CACHE_TTL_MS: int(7 * 24 * 3600 * 1000, 0, 365 * 24 * 3600 * 1000),
  JOB_RETENTION_MS: int(24 * 3600 * 1000, 60_000, 365 * 24 * 3600 * 1000),
  CRAWL_CONCURRENCY: int(16, 1, 1000),
  CRAWL_JOB_CONCURRENCY: int(8, 1, 1000),
  CRAWL_HOST_CONCURRENCY: int(8, 1, 1000),
  CRAWL_LEASE_MS: int(10_000, 500, 3_600_000),
  CRAWL_RETRY_BASE_MS: int(1000, 0, 600_000),
  RESPECT_ROBOTS_TXT: bool(true),
  EXTRACT_THREADS: int(defaultExtractThreads(), 0, 64),
  EXTRACT_WORKER_HEAP_MB: int(DEFAULT_EXTRACTOR_LIMITS.heapMb, 32, 8192),
  EXTRACT_LARGE_PAGE_CHARS: int(DEFAULT_EXTRACTOR_LIMITS.largePageChars, 1000, 1024 * 1024 * 1024),
  EXTRACT_LARGE_HEAP_MB: int(DEFAULT_EXTRACTOR_LIMITS.largeHeapMb, 32, 16384),
  EXTRACT_TIMEOUT_MS: int(DEFAULT_EXTRACTOR_LIMITS.timeoutMs, 100, 3_600_000),
  CHROMIUM_PATH: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : '/usr/bin/chromium')),
  BROWSER_MAX_BROWSERS: int(1, 1, 64),
  BROWSER_MAX_PAGES: int(4, 1, 256),
  BROWSER_PAGES_PER_BROWSER: int(500, 1, 1_000_000),
  BROWSER_LAUNCH_TIMEOUT_MS: int(30_000, 1000, 600_000),
  BROWSER_AUTO_ENGINE: z
    .enum(['playwright', 'puppeteer'])
    .optional()
    .transform((v) => v ?? 'playwright'),
  WEBHOOK_CONCURRENCY: int(64, 1, 10_000),
  WEBHOOK_SUBSCRIPTION_CONCURRENCY: int(4, 1, 1000),
  // 0 (the default): a quarter, and an eighth, of WEBHOOK_CONCURRENCY.
  WEBHOOK_OWNER_CONCURRENCY: int(0, 0, 10_000),
  WEBHOOK_RECEIVER_CONCURRENCY: int(0, 0, 10_000),
  WEBHOOK_TEST_PER_MINUTE: int(5, 1, 10_000),
  WEBHOOK_TEST_PER_MINUTE_PER_KEY: int(20, 1, 100_000),
  WEBHOOK_LEASE_MS: int(30_000, 500, 3_600_000),
  WEBHOOK_RETRY_UNIT_MS: int(60_000, 1, 3_600_000),
  WEBHOOK_POLL_MS: int(250, 1, 60_000),
  SCHEDULER_TICK_MS: int(1000, 10, 60_000),
  SCHEDULER_GRACE_MS: int(3_600_000, 0, 7 * 24 * 3_600_000),
  CLOCK_SPEEDUP: int(1, 1, 3600),
  CLOCK_ANCHOR_MS: int(0, 0, Number.MAX_SAFE_INTEGER),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024, 100 * 1024 * 1024),
  // A batch of 10,000 URLs of up to ~800 characters each, with its options.
  BATCH_BODY_LIMIT_BYTES: int(8 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  HTTP_REQUEST_TIMEOUT_MS: int(30_000, 100, 3_600_000),
  HTTP_HEADERS_TIMEOUT_MS: int(10_000, 100, 3_600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(72_000, 100, 3_600_000),
  HTTP_MAX_CONNECTIONS: int(1000, 0, 1_000_000),
  SHUTDOWN_TIMEOUT_MS: int(30_000, 0, 600_000),
  CREATE_INITIAL_KEY: bool(true),
  LLM_BASE_URL: optionalUrl(['http:', 'https:']),
  LLM_API_KEY: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined)),
  LLM_MODEL: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined)),
  LLM_TIMEOUT_MS: int(LLM_DEFAULTS.timeoutMs, 1000, 3_600_000),
  LLM_MAX_RETRIES: int(LLM_DEFAULTS.maxRetries, 0, 10),
  LLM_CONCURRENCY: int(LLM_DEFAULTS.concurrency, 1, 1000),
  LLM_MAX_INPUT_CHARS: int(LLM_DEFAULTS.maxInputChars, 1000, 10_000_000),
  STRUCTURED_REQUIRE_MODEL: bool(false),
  SEARCH_INDEX: bool(true),
  SEARCH_FTS_FLUSH_MS: int(2000, 10, 60_000),
  SEARXNG_URL: optionalUrl(['http:', 'https:']),
  SEARXNG_TIMEOUT_MS: int(10_000, 100, 600_000),
  SEARCH_SCRAPE_CONCURRENCY: int(5, 1, 100),
  MONITOR_CHECK_CONCURRENCY: int(16, 1, 1000),
  MONITOR_POLL_MS: int(1000, 10, 60_000),
  MONITOR_CHECK_LEASE_MS: int(60_000, 1000, 3_600_000),
  OCR_ENABLED: bool(true),
  OCR_THREADS: int(1, 1, 16),
  OCR_LANGS: z
    .string()
    .regex(/^[a-z_]{3,20}(\+[a-z_]{3,20}){0,7}$/, 'Tesseract language codes joined by +, e.g. eng or eng+deu')
    .default('eng'),
  OCR_LANG_PATH: z.string().min(1).optional(),
  OCR_MAX_IMAGES: int(10, 1, 200),
  OCR_MAX_IMAGE_BYTES: int(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  OCR_MAX_INPUT_PIXELS: int(50_000_000, 10_000, 1_000_000_000),
  OCR_MAX_PIXELS: int(4_000_000, 10_000, 100_000_000),
  OCR_IMAGE_TIMEOUT_MS: int(15_000, 100, 600_000),
  OCR_PAGE_TIMEOUT_MS: int(60_000, 100, 3_600_000),
  OCR_CACHE_ENTRIES: int(2000, 1, 1_000_000),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema holding the service's tables (created when missing); undefined: the role's default (public). */
  databaseSchema: string | undefined;
  publicUrl: string | undefined;
  apiKeys: string[];
  logLevel: string;
  allowLocalTargets: boolean;
  allowLocalWebhooks: boolean;
  /** The operator's proxy for all target traffic (pages, robots.txt, browser renders); its address is not guarded. */
  outboundProxy: string | undefined;
  /** Proxies (host:port) a request may name although they are private. */
  requestProxyAllowlist: string[];
  userAgent: string;
  scrapeMaxBytes: number;
  scrapeMaxRedirects: number;
  cacheDefaultMaxAgeMs: number;
  cacheTtlMs: number;
  jobRetentionMs: number;
  crawlConcurrency: number;
  crawlJobConcurrency: number;
  crawlHostConcurrency: number;
  crawlLeaseMs: number;
  crawlRetryBaseMs: number;
  respectRobotsTxt: boolean;
  extractThreads: number;
  extractWorkerHeapMb: number;
  /** Pages longer than this (characters) are extracted by the large-page thread. */
  extractLargePageChars: number;
  extractLargeHeapMb: number;
  extractTimeoutMs: number;
  chromiumPath: string;
  browserMaxBrowsers: number;
  browserMaxPages: number;
  browserPagesPerBrowser: number;
  browserLaunchTimeoutMs: number;
  /** The browser engine that `engine: auto` moves a page to. */
  browserAutoEngine: 'playwright' | 'puppeteer';
  webhookConcurrency: number;
  webhookSubscriptionConcurrency: number;
  /** Deliveries in flight per API key in one process. */
  webhookOwnerConcurrency: number;
  /** Deliveries in flight per receiver (URL origin) in one process. */
  webhookReceiverConcurrency: number;
  /** POST /v1/webhooks/:id/test per subscription, and per key, in any 60 s. */
  webhookTestPerMinute: number;
  webhookTestPerMinutePerKey: number;
  webhookLeaseMs: number;
  webhookRetryUnitMs: number;
  webhookPollMs: number;
  schedulerTickMs: number;
  schedulerGraceMs: number;
  /** Testing only: time runs this many times faster from the anchor (real ms since the epoch). */
  clockSpeedup: number;
  clockAnchorMs: number;
  bodyLimitBytes: number;
  /** The body limit of batch scrape creation (/v1 and /v2), which names up to 10,000 URLs. */
  batchBodyLimitBytes: number;
  /** Time a client has to send a whole request (headers and body); answering it is not limited. */
  httpRequestTimeoutMs: number;
  /** Time a client has to send the request line and headers (at most httpRequestTimeoutMs). */
  httpHeadersTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  /** Open connections at most (0: no cap); more are closed at once. */
  httpMaxConnections: number;
  shutdownTimeoutMs: number;
  createInitialKey: boolean;
  /** The OpenAI-compatible model behind `json` and `summary` (docs/structured.md); absent: the built-in rules. */
  llm: LlmSettings | undefined;
  /** Refuse `json` and `summary` (400) when no model is configured, instead of answering from rules. */
  structuredRequireModel: boolean;
  /** Saved pages go into their key's search index, the `index` engine of /v1/search (docs/search.md). */
  searchIndex: boolean;
  /** SQLite: how often saved pages waiting for the full-text index are indexed (a search first indexes up to 1,000). */
  searchFtsFlushMs: number;
  /** A SearXNG instance's base URL: the `searxng` engine; absent, that engine is not offered. */
  searxngUrl: string | undefined;
  /** How long one search may wait for SearXNG, all its result pages together. */
  searxngTimeoutMs: number;
  /** Results of one search scraped at once (with scrape_options). */
  searchScrapeConcurrency: number;
  /** Monitor checks one worker runs at once. */
  monitorCheckConcurrency: number;
  /** How often a worker looks for monitor checks queued by other processes. */
  monitorPollMs: number;
  /** How long a check stays leased without its runner renewing it (a dead runner's check is retried after it). */
  monitorCheckLeaseMs: number;
  /** OCR of markdown images (`ocr_options`); undefined when OCR_ENABLED is false. */
  ocr?: OcrConfig;
};

export class ConfigError extends Error {}

/** Settings whose values an error message never repeats. */
const SECRET_SETTINGS = new Set([
  'API_KEYS',
  'DATABASE_URL',
  'OUTBOUND_PROXY',
  'LLM_API_KEY',
  'LLM_BASE_URL',
  'SEARXNG_URL',
]);

/** Reads the settings; a bad value throws a ConfigError that names the setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      const got = env[name];
      return `${name}: ${i.message}${got !== undefined ? ` (got ${JSON.stringify(SECRET_SETTINGS.has(name) ? '***' : got)})` : ''}`;
    });
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.DATABASE_SCHEMA !== undefined && !/^postgres(ql)?:/.test(e.DATABASE_URL ?? '')) {
    throw new ConfigError(
      'Invalid settings:\n  DATABASE_SCHEMA: applies to PostgreSQL only; set DATABASE_URL to a postgres:// URL (SQLite keeps each store in its own file)',
    );
  }
  if ((e.LLM_BASE_URL === undefined) !== (e.LLM_MODEL === undefined)) {
    throw new ConfigError(
      'Invalid settings:\n  LLM_BASE_URL and LLM_MODEL: set both to use a model for json and summary, or neither for the built-in rules',
    );
  }
  const ocrLangPath = e.OCR_LANG_PATH ?? bundledLangPath();
  // A missing model is a setting to fix before the service starts, not a failure of every page that asks for OCR.
  const ocrMissing = e.OCR_ENABLED ? missingLanguageFiles(e.OCR_LANGS.split('+'), ocrLangPath) : undefined;
  if (ocrMissing !== undefined) throw new ConfigError(`Invalid settings:\n  ${ocrMissing}`);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    publicUrl: e.PUBLIC_URL,
    apiKeys: e.API_KEYS,
    logLevel: e.LOG_LEVEL,
    allowLocalTargets: e.ALLOW_LOCAL_TARGETS,
    allowLocalWebhooks: e.ALLOW_LOCAL_WEBHOOKS,
    outboundProxy: e.OUTBOUND_PROXY,
    requestProxyAllowlist: e.REQUEST_PROXY_ALLOWLIST,
    userAgent: e.USER_AGENT,
    scrapeMaxBytes: e.SCRAPE_MAX_BYTES,
    scrapeMaxRedirects: e.SCRAPE_MAX_REDIRECTS,
    cacheDefaultMaxAgeMs: e.CACHE_DEFAULT_MAX_AGE_MS,
    cacheTtlMs: e.CACHE_TTL_MS,
    jobRetentionMs: e.JOB_RETENTION_MS,
    crawlConcurrency: e.CRAWL_CONCURRENCY,
    crawlJobConcurrency: e.CRAWL_JOB_CONCURRENCY,
    crawlHostConcurrency: e.CRAWL_HOST_CONCURRENCY,
    crawlLeaseMs: e.CRAWL_LEASE_MS,
    crawlRetryBaseMs: e.CRAWL_RETRY_BASE_MS,
    respectRobotsTxt: e.RESPECT_ROBOTS_TXT,
    extractThreads: e.EXTRACT_THREADS,
    extractWorkerHeapMb: e.EXTRACT_WORKER_HEAP_MB,
    extractLargePageChars: e.EXTRACT_LARGE_PAGE_CHARS,
    extractLargeHeapMb: e.EXTRACT_LARGE_HEAP_MB,
    extractTimeoutMs: e.EXTRACT_TIMEOUT_MS,
    chromiumPath: e.CHROMIUM_PATH,
    browserMaxBrowsers: e.BROWSER_MAX_BROWSERS,
    browserMaxPages: e.BROWSER_MAX_PAGES,
    browserPagesPerBrowser: e.BROWSER_PAGES_PER_BROWSER,
    browserLaunchTimeoutMs: e.BROWSER_LAUNCH_TIMEOUT_MS,
    browserAutoEngine: e.BROWSER_AUTO_ENGINE,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookSubscriptionConcurrency: e.WEBHOOK_SUBSCRIPTION_CONCURRENCY,
    webhookOwnerConcurrency: e.WEBHOOK_OWNER_CONCURRENCY || Math.max(1, Math.floor(e.WEBHOOK_CONCURRENCY / 4)),
    webhookReceiverConcurrency: e.WEBHOOK_RECEIVER_CONCURRENCY || Math.max(1, Math.floor(e.WEBHOOK_CONCURRENCY / 8)),
    webhookTestPerMinute: e.WEBHOOK_TEST_PER_MINUTE,
    webhookTestPerMinutePerKey: e.WEBHOOK_TEST_PER_MINUTE_PER_KEY,
    webhookLeaseMs: e.WEBHOOK_LEASE_MS,
    webhookRetryUnitMs: e.WEBHOOK_RETRY_UNIT_MS,
    webhookPollMs: e.WEBHOOK_POLL_MS,
    schedulerTickMs: e.SCHEDULER_TICK_MS,
    schedulerGraceMs: e.SCHEDULER_GRACE_MS,
    clockSpeedup: e.CLOCK_SPEEDUP,
    clockAnchorMs: e.CLOCK_ANCHOR_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    batchBodyLimitBytes: Math.max(e.BATCH_BODY_LIMIT_BYTES, e.BODY_LIMIT_BYTES),
    httpRequestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    httpHeadersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS),
    httpKeepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    httpMaxConnections: e.HTTP_MAX_CONNECTIONS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    createInitialKey: e.CREATE_INITIAL_KEY,
    llm:
      e.LLM_BASE_URL !== undefined && e.LLM_MODEL !== undefined
        ? {
            baseUrl: e.LLM_BASE_URL,
            ...(e.LLM_API_KEY !== undefined ? { apiKey: e.LLM_API_KEY } : {}),
            model: e.LLM_MODEL,
            timeoutMs: e.LLM_TIMEOUT_MS,
            maxRetries: e.LLM_MAX_RETRIES,
            concurrency: e.LLM_CONCURRENCY,
            maxInputChars: e.LLM_MAX_INPUT_CHARS,
          }
        : undefined,
    structuredRequireModel: e.STRUCTURED_REQUIRE_MODEL,
    searchIndex: e.SEARCH_INDEX,
    searchFtsFlushMs: e.SEARCH_FTS_FLUSH_MS,
    searxngUrl: e.SEARXNG_URL,
    searxngTimeoutMs: e.SEARXNG_TIMEOUT_MS,
    searchScrapeConcurrency: e.SEARCH_SCRAPE_CONCURRENCY,
    monitorCheckConcurrency: e.MONITOR_CHECK_CONCURRENCY,
    monitorPollMs: e.MONITOR_POLL_MS,
    monitorCheckLeaseMs: e.MONITOR_CHECK_LEASE_MS,
    ...(e.OCR_ENABLED
      ? {
          ocr: {
            threads: e.OCR_THREADS,
            langs: e.OCR_LANGS.split('+'),
            langPath: ocrLangPath,
            maxImages: e.OCR_MAX_IMAGES,
            maxBytes: e.OCR_MAX_IMAGE_BYTES,
            maxInputPixels: e.OCR_MAX_INPUT_PIXELS,
            maxPixels: e.OCR_MAX_PIXELS,
            timeoutMs: e.OCR_IMAGE_TIMEOUT_MS,
            pageTimeoutMs: e.OCR_PAGE_TIMEOUT_MS,
            cacheEntries: e.OCR_CACHE_ENTRIES,
          },
        }
      : {}),
  };
}
