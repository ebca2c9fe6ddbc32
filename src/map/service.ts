// The synchronous map operation: a job row and its events around the collection of a site's URLs from its
// sitemaps, its start page and (with use_index) the key's own crawl results.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxSignal } from '../events/outbox.js';
import { InvalidInputError } from '../domain/errors.js';
import { createJobWithEvents, endJobAlone } from '../jobs/job-store.js';
import type { Database } from '../store/schema.js';
import { type Clock, iso } from '../util/time.js';
import { classifyStoreError } from '../store/store-errors.js';
import { classifyPageError, type PageFailure, scrapeFailedError } from '../scrape/failures.js';
import { type PageResult, type PipelineDeps, runPage } from '../scrape/pipeline.js';
import { resolvePageOptions } from '../scrape/schema.js';
import { createStrategyFilter, normalizeUrl, siteKey } from '../crawl/scope/index.js';
import { blockedTarget, type TargetGuard } from '../crawl/seed-guard.js';
import { collectSitemaps, LinkCollector, type MapLink, type SitemapStats, untilDeadline } from './discover.js';
import { mapEvents } from './events.js';
import { MAP_LIMITS, type MapRequest } from './schema.js';

export interface MapServiceDeps {
  db: Kysely<Database>;
  /** The start page goes through the scrape pipeline (HTTP engine, page cache); its settings serve the sitemaps. */
  pipeline: PipelineDeps;
  /** robots.txt's Sitemap lines of a URL's origin (the shared robots.txt cache). */
  robotsSitemaps: (url: string) => Promise<string[]>;
  /** The URLs the key's own saved pages hold matching LIKE patterns (crawl and batch results, then the index). */
  indexUrls: (ownerId: string, patterns: readonly string[], max: number, now: string) => Promise<string[]>;
  /** The address guard's settings: a private start URL fails at once. */
  targets: TargetGuard;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** How long a finished job's record is kept. */
  retentionMs: number;
  outbox: OutboxSignal;
}

/** What each source gave, beside the links (the answer's `sources`). */
export interface MapSources {
  sitemaps: SitemapStats | { skipped: 'ignore_sitemap' };
  start_page: { status_code: number; urls: number } | { error: PageFailure } | { skipped: 'sitemap_only' };
  index?: { urls: number };
}

export interface MapSuccess {
  job_id: string;
  links: MapLink[];
  sources: MapSources;
}

type StartPage = { page: PageResult } | { failure: PageFailure };

export class MapService {
  constructor(private readonly deps: MapServiceDeps) {}

  /**
   * `mode.sitemapOnly`: only the sitemaps' URLs (Firecrawl's `sitemap: "only"`): the start page is not fetched and the
   * index not read; an empty map is then an answer, not a failure.
   */
  async map(
    ownerId: string,
    request: MapRequest,
    signal?: AbortSignal,
    mode: { sitemapOnly?: boolean } = {},
  ): Promise<MapSuccess> {
    const { db, clock } = this.deps;
    const start = normalizeUrl(request.url);
    if (start === undefined)
      throw new InvalidInputError([
        { field: 'url', code: 'invalid_string', message: 'Must be an absolute http:// or https:// URL' },
      ]);
    const limit = request.limit ?? MAP_LIMITS.defaultLimit;
    const timeoutMs = request.timeout ?? MAP_LIMITS.defaultTimeoutMs;
    const jobId = randomUUID();
    const createdAt = iso(clock());
    const job = { id: jobId, owner_id: ownerId, url: start, created_at: createdAt };
    await createJobWithEvents(
      db,
      {
        id: jobId,
        ownerId,
        kind: 'map',
        status: 'pending',
        url: start,
        options: { ...request },
        createdAt,
        startedAt: createdAt,
        expiresAt: iso(new Date(Date.parse(createdAt) + this.deps.retentionMs)),
      },
      [mapEvents['map.created'](job), mapEvents['map.started'](job, createdAt)],
      this.deps.outbox,
    );

    let result: MapSuccess;
    try {
      result = await this.collect(ownerId, jobId, start, request, limit, Date.now() + timeoutMs, signal, mode);
    } catch (error) {
      const failure = error instanceof MapFailed ? error.failure : classifyPageError(error);
      const storeFailure = error instanceof MapFailed ? undefined : classifyStoreError(error);
      if (failure.code === 'INTERNAL' && !storeFailure)
        this.deps.logger.error({ err: error, jobId, url: start }, 'map failed on an internal error');
      const recorded = endJobAlone(
        db,
        jobId,
        { status: 'failed', at: iso(clock()), counts: { total: 0, failed: 1 }, error: failure },
        mapEvents['map.failed'],
        this.deps.outbox,
      );
      if (storeFailure) {
        await recorded.catch(() => undefined);
        throw error;
      }
      await recorded;
      throw scrapeFailedError(failure, { job_id: jobId, url: start, status: 'failed' });
    }

    const failedSources =
      ('failed' in result.sources.sitemaps ? result.sources.sitemaps.failed : 0) +
      ('error' in result.sources.start_page ? 1 : 0);
    await endJobAlone(
      db,
      jobId,
      {
        status: 'completed',
        at: iso(clock()),
        counts: { total: result.links.length, completed: result.links.length, failed: failedSources, credits_used: 1 },
      },
      mapEvents['map.completed'],
      this.deps.outbox,
    );
    return result;
  }

  private async collect(
    ownerId: string,
    jobId: string,
    start: string,
    request: MapRequest,
    limit: number,
    deadline: number,
    signal: AbortSignal | undefined,
    mode: { sitemapOnly?: boolean },
  ): Promise<MapSuccess> {
    const { pipeline } = this.deps;
    const blocked = await blockedTarget(start, this.deps.targets);
    if (blocked) throw new MapFailed({ code: 'BLOCKED_ADDRESS', message: blocked.message });

    const startUrl = new URL(start);
    const strategy = createStrategyFilter(
      startUrl,
      request.include_subdomains === true ? 'same-domain' : 'same-hostname',
    );
    const collector = new LinkCollector(limit, (raw, base) => {
      const url = normalizeUrl(raw, base);
      return url !== undefined && strategy(new URL(url)) ? url : undefined;
    });

    // The start page is fetched while the sitemaps are read; its links are added after theirs.
    const startPage: Promise<StartPage | undefined> = mode.sitemapOnly
      ? Promise.resolve(undefined)
      : this.startPage(start, request, deadline, signal, { ownerId, jobId });
    // Awaited below, after the sitemaps; a fault of ours in it must not count as unhandled meanwhile.
    startPage.catch(() => undefined);
    let sitemaps: MapSources['sitemaps'] = { skipped: 'ignore_sitemap' };
    if (request.ignore_sitemap !== true) {
      sitemaps = await collectSitemaps({
        startUrl: start,
        robotsSitemaps: () => this.deps.robotsSitemaps(start),
        collector,
        deadline,
        ...(signal ? { signal } : {}),
        fetch: {
          userAgent: pipeline.userAgent,
          allowPrivateAddresses: pipeline.allowPrivateAddresses,
          maxRedirects: pipeline.maxRedirects,
          ...(pipeline.proxies ? { proxies: pipeline.proxies } : {}),
          ...(pipeline.resolve ? { resolve: pipeline.resolve } : {}),
        },
        onUnexpected: (err, url) =>
          this.deps.logger.error({ err, jobId, url }, 'a sitemap failed on an internal error'),
      });
    }

    const fromStart = await startPage;
    let startSource: MapSources['start_page'];
    if (fromStart === undefined) {
      startSource = { skipped: 'sitemap_only' };
    } else if ('page' in fromStart) {
      const { page } = fromStart;
      const before = collector.size;
      const self = page.metadata.status_code < 400 ? collector.inScope(page.metadata.final_url) : undefined;
      if (self !== undefined) collector.addNormalized(self);
      for (const link of page.links ?? []) {
        if (collector.full) break;
        const url = collector.inScope(link);
        if (url !== undefined) collector.addNormalized(url);
      }
      const entry = self !== undefined ? collector.entry(self) : undefined;
      if (entry) {
        if (page.title) entry.title = page.title;
        const description = page.metadata.description;
        if (typeof description === 'string' && description !== '') entry.description = description;
      }
      startSource = { status_code: page.metadata.status_code, urls: collector.size - before };
    } else {
      startSource = { error: fromStart.failure };
    }

    let index: MapSources['index'];
    if (request.use_index === true && !mode.sitemapOnly) {
      const before = collector.size;
      if (!collector.full) {
        const urls = await this.deps.indexUrls(
          ownerId,
          likePatterns(startUrl.hostname, startUrl.port, request.include_subdomains === true),
          limit - collector.size,
          iso(this.deps.clock()),
        );
        for (const raw of urls) {
          const url = collector.inScope(raw);
          if (url !== undefined) collector.addNormalized(url);
        }
      }
      index = { urls: collector.size - before };
    }

    // Nothing from anywhere, and the start page itself failed: the map fails as a scrape of it would.
    if (fromStart !== undefined && 'failure' in fromStart && collector.size === 0)
      throw new MapFailed(fromStart.failure);
    return {
      job_id: jobId,
      links: collector.links(),
      sources: { sitemaps, start_page: startSource, ...(index ? { index } : {}) },
    };
  }

  /** The start page through the scrape pipeline: plain HTTP, the page cache within `max_age`, its links. */
  private async startPage(
    url: string,
    request: MapRequest,
    deadline: number,
    signal: AbortSignal | undefined,
    job: { ownerId: string; jobId: string },
  ): Promise<StartPage> {
    const options = resolvePageOptions({
      engine: 'cheerio',
      formats: ['links'],
      timeout: Math.max(1, deadline - Date.now()),
      ...(request.max_age !== undefined ? { max_age: request.max_age } : {}),
    });
    try {
      const run = runPage(url, options, this.deps.pipeline, { readCache: true, ...(signal ? { signal } : {}), job });
      // The pipeline's fetch ends at the deadline; extraction has its own budget, so the deadline is held here too.
      const late: StartPage = {
        failure: { code: 'TIMEOUT', message: `No complete answer from ${new URL(url).host} within the map's timeout` },
      };
      return await untilDeadline(
        run.then((page): StartPage => ({ page })),
        deadline + 1000,
        late,
      );
    } catch (error) {
      const failure = classifyPageError(error);
      if (failure.code === 'INTERNAL') throw error;
      return { failure };
    }
  }
}

/** A map that found nothing and whose start page failed, with that failure. */
class MapFailed extends Error {
  constructor(readonly failure: PageFailure) {
    super(failure.message);
  }
}

/**
 * LIKE patterns that select the URLs of a host (or of its registrable domain and subdomains) from stored URLs.
 * They are a coarse filter (`_` matches any character, `%.` any prefix); the scope filter decides after.
 */
export function likePatterns(hostname: string, port: string, subdomains: boolean): string[] {
  const hosts = subdomains ? [siteKey(hostname)] : [hostname];
  // Saved URLs are normalized (a default port is dropped): the start URL's port, or none, is the same server.
  const authority = port === '' ? '' : `:${port}`;
  const patterns: string[] = [];
  for (const host of hosts) {
    for (const scheme of ['http', 'https']) {
      patterns.push(`${scheme}://${host}${authority}/%`);
      if (subdomains) patterns.push(`${scheme}://%.${host}${authority}/%`);
    }
  }
  return patterns;
}
