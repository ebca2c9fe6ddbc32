// Every deployment setting, read from the environment, validated, with its default.
import path from 'node:path';
import { z } from 'zod';
import { defaultExtractThreads } from './scrape/extractor.js';

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

const envSchema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z.string().optional().transform((v) => v || '0.0.0.0'),
  DATA_DIR: z.string().optional().transform((v) => path.resolve(v || './data')),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:', 'sqlite:', 'file:']),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  API_KEYS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((k) => k.trim()).filter((k) => k.length > 0)),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .optional()
    .transform((v) => v ?? 'info'),
  ALLOW_LOCAL_TARGETS: bool(false),
  ALLOW_LOCAL_WEBHOOKS: bool(false),
  USER_AGENT: z.string().optional().transform((v) => v || 'CrawlService/0.1 (+https://github.com/crawlservice)'),
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
  EXTRACT_WORKER_HEAP_MB: int(128, 32, 8192),
  CHROMIUM_PATH: z.string().optional().transform((v) => (v && v.trim() !== '' ? v.trim() : '/usr/bin/chromium')),
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
  WEBHOOK_LEASE_MS: int(30_000, 500, 3_600_000),
  WEBHOOK_RETRY_UNIT_MS: int(60_000, 1, 3_600_000),
  WEBHOOK_POLL_MS: int(250, 1, 60_000),
  SCHEDULER_TICK_MS: int(1000, 10, 60_000),
  SCHEDULER_GRACE_MS: int(3_600_000, 0, 7 * 24 * 3_600_000),
  CLOCK_SPEEDUP: int(1, 1, 3600),
  CLOCK_ANCHOR_MS: int(0, 0, Number.MAX_SAFE_INTEGER),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024, 100 * 1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: int(30_000, 0, 600_000),
  CREATE_INITIAL_KEY: bool(true),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  apiKeys: string[];
  logLevel: string;
  allowLocalTargets: boolean;
  allowLocalWebhooks: boolean;
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
  chromiumPath: string;
  browserMaxBrowsers: number;
  browserMaxPages: number;
  browserPagesPerBrowser: number;
  browserLaunchTimeoutMs: number;
  /** The browser engine that `engine: auto` moves a page to. */
  browserAutoEngine: 'playwright' | 'puppeteer';
  webhookConcurrency: number;
  webhookSubscriptionConcurrency: number;
  webhookLeaseMs: number;
  webhookRetryUnitMs: number;
  webhookPollMs: number;
  schedulerTickMs: number;
  schedulerGraceMs: number;
  /** Testing only: time runs this many times faster from the anchor (real ms since the epoch). */
  clockSpeedup: number;
  clockAnchorMs: number;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  createInitialKey: boolean;
};

export class ConfigError extends Error {}

/** Reads the settings; a bad value throws a ConfigError that names the setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      const got = env[name];
      return `${name}: ${i.message}${got !== undefined ? ` (got ${JSON.stringify(name === 'API_KEYS' || name === 'DATABASE_URL' ? '***' : got)})` : ''}`;
    });
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    apiKeys: e.API_KEYS,
    logLevel: e.LOG_LEVEL,
    allowLocalTargets: e.ALLOW_LOCAL_TARGETS,
    allowLocalWebhooks: e.ALLOW_LOCAL_WEBHOOKS,
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
    chromiumPath: e.CHROMIUM_PATH,
    browserMaxBrowsers: e.BROWSER_MAX_BROWSERS,
    browserMaxPages: e.BROWSER_MAX_PAGES,
    browserPagesPerBrowser: e.BROWSER_PAGES_PER_BROWSER,
    browserLaunchTimeoutMs: e.BROWSER_LAUNCH_TIMEOUT_MS,
    browserAutoEngine: e.BROWSER_AUTO_ENGINE,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookSubscriptionConcurrency: e.WEBHOOK_SUBSCRIPTION_CONCURRENCY,
    webhookLeaseMs: e.WEBHOOK_LEASE_MS,
    webhookRetryUnitMs: e.WEBHOOK_RETRY_UNIT_MS,
    webhookPollMs: e.WEBHOOK_POLL_MS,
    schedulerTickMs: e.SCHEDULER_TICK_MS,
    schedulerGraceMs: e.SCHEDULER_GRACE_MS,
    clockSpeedup: e.CLOCK_SPEEDUP,
    clockAnchorMs: e.CLOCK_ANCHOR_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    createInitialKey: e.CREATE_INITIAL_KEY,
  };
}
