// Wires the service together from its settings: store, keys, pipeline, HTTP server.
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { buildServer } from './http/server.js';
import { ApiKeys } from './keys/api-keys.js';
import { type ChromiumPool, createBrowserPool } from './browser/index.js';
import { deploymentCapabilities } from './scrape/capabilities.js';
import { createMarkdownOcr } from './ocr/index.js';
import { createLlmExtractor } from './scrape/structured/llm/index.js';
import { ScreenshotStore } from './screenshots/store.js';
import { screenshotRoutes } from './screenshots/routes.js';
import { PageCache } from './scrape/page-cache.js';
import { scrapeRoutes } from './scrape/routes.js';
import { ScrapeService } from './scrape/service.js';
import type { PipelineDeps } from './scrape/pipeline.js';
import { closeDispatchers } from './fetch/index.js';
import { createExtractor, type Extractor } from './scrape/extractor.js';
import { CrawlRunner } from './crawl/runner.js';
import { RobotsCache } from './crawl/robots-cache.js';
import { crawlRoutes } from './crawl/routes.js';
import { CrawlService } from './crawl/service.js';
import { CrawlStore } from './crawl/store.js';
import { batchRoutes } from './batch/routes.js';
import { BatchService } from './batch/service.js';
import { mapRoutes } from './map/routes.js';
import type { SearchEngine } from './search/engine.js';
import { createIndexEngine } from './search/index-engine.js';
import { createSearxngEngine } from './search/searxng.js';
import { indexedUrlsOfOwner, SearchIndex } from './search-index/index-store.js';
import { FtsFlusher } from './search-index/fts-flusher.js';
import { searchRoutes } from './search/routes.js';
import { SearchService } from './search/service.js';
import { TemplateRunner } from './templates/execute.js';

import { templateExpansion, templateRoutes } from './templates/routes.js';
import { TemplateService } from './templates/service.js';
import { tasksUsingTemplate } from './tasks/task-store.js';
import { INTERRUPTED_SEARCH_MS } from './search/interrupted.js';
import { INTERRUPTED_SCRAPE_MS } from './scrape/interrupted.js';
import { MapService } from './map/service.js';
import { DeliveryStore } from './webhooks/delivery-store.js';
import { webhookIdsOfTasks } from './tasks/task-store.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { webhookRoutes } from './webhooks/routes.js';
import { closeWebhookAgents } from './webhooks/send/agents.js';
import { TestRateLimit } from './webhooks/test-rate-limit.js';
import { WebhookService } from './webhooks/service.js';
import { SubscriptionStore } from './webhooks/subscription-store.js';
import { taskRoutes } from './tasks/routes.js';
import { CheckRunner } from './monitors/check-runner.js';
import { notificationLookup } from './monitors/notifications.js';
import { firecrawlRoutes } from './firecrawl/index.js';
import { ChangeTrackingStore } from './firecrawl/change-tracking.js';
import { ownerUsage } from './jobs/job-store.js';
import { monitorRoutes } from './monitors/routes.js';
import { MonitorService } from './monitors/service.js';
import { MonitorStore } from './monitors/store.js';
import { Scheduler } from './tasks/scheduler.js';
import { TaskService } from './tasks/service.js';
import { connectionErrorLogger } from './store/connection-errors.js';
import { type Db, openDatabase } from './store/database.js';
import { migrateToLatest } from './store/migrations.js';
import { startSweeper } from './maintenance/sweeper.js';
import { OutboxSignal } from './events/outbox.js';
import { acceleratedClock, type Clock } from './util/time.js';
import type { ProxyPolicy, Resolver } from './net/address-guard.js';

export const VERSION = '0.1.0';

export interface App {
  server: FastifyInstance;
  db: Db;
  keys: ApiKeys;
  runner: CrawlRunner | undefined;
  dispatcher: WebhookDispatcher | undefined;
  scheduler: Scheduler | undefined;
  /** Runs monitor checks (worker role). */
  monitorChecks: CheckRunner | undefined;
  /**
   * Clean-up of expired data and of interrupted scrapes, every 10 minutes; like the three above, only in the worker
   * role.
   */
  sweeper: ReturnType<typeof startSweeper> | undefined;
  /** Says that this app recorded events; its dispatcher listens (each app has its own). */
  outbox: OutboxSignal;
  /** The browser engines' pool (its stats show contexts opened and reused). */
  browser: ChromiumPool;
  /** Where pages are extracted (its waiting lines are observable). */
  extractor: Extractor;
  close(): Promise<void>;
}

export interface AppOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** PostgreSQL schema, over config.databaseSchema (tests give each run its own). */
  databaseSchema?: string;
  /** Which roles this process plays; `serve` plays all of them. */
  roles?: { worker: boolean };
  /** Tests only: name resolution of the address guard for fetches (a "public" name can then lead to a local server). */
  resolve?: Resolver;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  const clock = options.clock ?? acceleratedClock(config.clockSpeedup, config.clockAnchorMs);
  const roles = options.roles ?? { worker: true };
  const db = await openDatabase(
    { url: config.databaseUrl, dataDir: config.dataDir, schema: options.databaseSchema ?? config.databaseSchema },
    { onConnectionError: connectionErrorLogger(logger) },
  );
  try {
    const applied = await migrateToLatest(db.kysely);
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');

    const keys = new ApiKeys(db.kysely, config.apiKeys, clock);
    const outbox = new OutboxSignal();
    const cache = new PageCache(db.kysely);
    const extractor = createExtractor({
      threads: config.extractThreads,
      heapMb: config.extractWorkerHeapMb,
      largePageChars: config.extractLargePageChars,
      largeHeapMb: config.extractLargeHeapMb,
      timeoutMs: config.extractTimeoutMs,
    });
    if (config.extractThreads === 0) {
      logger.warn(
        'EXTRACT_THREADS=0: pages are extracted on the main thread without memory or time limits; one large page can block or kill the service (tests only)',
      );
    }
    // Browsers launch on first use; without Chromium the service runs with the HTTP engine only.
    const browserPool = createBrowserPool(
      {
        executablePath: config.chromiumPath,
        maxBrowsers: config.browserMaxBrowsers,
        maxPages: config.browserMaxPages,
        pagesPerBrowser: config.browserPagesPerBrowser,
        launchTimeoutMs: config.browserLaunchTimeoutMs,
      },
      options.resolve ? { resolve: options.resolve } : undefined,
    );
    const browserInstalled = await browserPool.available();
    if (!browserInstalled) {
      logger.warn(
        { chromiumPath: config.chromiumPath },
        'no Chromium at CHROMIUM_PATH: browser engines are off (apt-get install -y chromium)',
      );
    }
    const proxies: ProxyPolicy = {
      ...(config.outboundProxy !== undefined ? { outboundProxy: config.outboundProxy } : {}),
      allowlist: config.requestProxyAllowlist,
      allowPrivate: config.allowLocalTargets,
    };
    const capabilities = deploymentCapabilities(
      browserInstalled,
      proxies,
      { model: config.llm !== undefined, requireModel: config.structuredRequireModel },
      config.ocr !== undefined,
    );
    const ocr = config.ocr ? createMarkdownOcr(config.ocr) : undefined;
    // One model client per process, so LLM_CONCURRENCY bounds the calls of scrapes and crawls together.
    const llm = config.llm ? createLlmExtractor(config.llm, logger) : undefined;
    if (config.llm) {
      logger.info({ model: config.llm.model }, 'json and summary use the model at LLM_BASE_URL');
    }
    const screenshots = new ScreenshotStore(db.kysely);
    const pipeline: PipelineDeps = {
      cache,
      extractor,
      now: clock,
      userAgent: config.userAgent,
      maxBytes: config.scrapeMaxBytes,
      maxRedirects: config.scrapeMaxRedirects,
      allowPrivateAddresses: config.allowLocalTargets,
      proxies,
      ...(options.resolve ? { resolve: options.resolve } : {}),
      defaultMaxAgeMs: config.cacheDefaultMaxAgeMs,
      browser: browserInstalled ? browserPool : undefined,
      autoBrowserEngine: config.browserAutoEngine,
      screenshots,
      // Without a model the built-in rules answer json and summary.
      ...(llm && config.llm
        ? { structured: { llm, model: config.llm.model, maxInputChars: config.llm.maxInputChars } }
        : {}),
      ...(ocr ? { ocr: ocr.markdown } : {}),
    };
    const scrape = new ScrapeService({
      db: db.kysely,
      clock,
      logger,
      capabilities,
      retentionMs: config.jobRetentionMs,
      retryBaseMs: config.crawlRetryBaseMs,
      pipeline,
      outbox,
      searchIndex: config.searchIndex,
    });
    const crawlStore = new CrawlStore(db.kysely, db.dialect, outbox);
    // One robots.txt cache for the crawls (when they honour it) and the maps (which read its Sitemap lines).
    const robots = new RobotsCache({
      userAgent: config.userAgent,
      allowPrivateAddresses: config.allowLocalTargets,
      proxies,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    const runner = roles.worker
      ? new CrawlRunner({
          store: crawlStore,
          pipeline,
          robots: config.respectRobotsTxt ? robots : undefined,
          clock,
          logger,
          concurrency: config.crawlConcurrency,
          jobConcurrency: config.crawlJobConcurrency,
          hostConcurrency: config.crawlHostConcurrency,
          leaseMs: config.crawlLeaseMs,
          retentionMs: config.jobRetentionMs,
          retryBaseMs: config.crawlRetryBaseMs,
          searchIndex: config.searchIndex,
        })
      : undefined;
    const crawl = new CrawlService({
      store: crawlStore,
      clock,
      capabilities,
      retentionMs: config.jobRetentionMs,
      targets: { allowPrivate: config.allowLocalTargets },
      onCreated: () => runner?.notify(),
    });
    // Batch scrapes are frontier jobs of their own kind: the crawl store holds them and the crawl runner runs them.
    const batch = new BatchService({
      store: crawlStore,
      clock,
      capabilities,
      retentionMs: config.jobRetentionMs,
      allowPrivateTargets: config.allowLocalTargets,
      onCreated: () => runner?.notify(),
    });
    const map = new MapService({
      db: db.kysely,
      pipeline,
      robotsSitemaps: async (url) => (await robots.rulesFor(url)).sitemaps(),
      indexUrls: async (ownerId, patterns, max, now) => {
        const saved = await crawlStore.resultUrlsOfOwner(ownerId, patterns, max, now);
        if (saved.length >= max || !config.searchIndex) return saved;
        // Single scrapes and a search's scraped results are kept only in the search index.
        const indexed = await indexedUrlsOfOwner(db.kysely, ownerId, patterns, max);
        return [...new Set([...saved, ...indexed])].slice(0, max);
      },
      targets: { allowPrivate: config.allowLocalTargets, ...(options.resolve ? { resolve: options.resolve } : {}) },
      clock,
      logger,
      retentionMs: config.jobRetentionMs,
      outbox,
    });
    // The index engine is offered whenever pages are indexed; SearXNG when configured, and then it is the default.
    const searchEngines: SearchEngine[] = [];
    const searxng = config.searxngUrl
      ? createSearxngEngine({
          baseUrl: config.searxngUrl,
          timeoutMs: config.searxngTimeoutMs,
          userAgent: config.userAgent,
        })
      : undefined;
    if (searxng) searchEngines.push(searxng);
    if (config.searchIndex) searchEngines.push(createIndexEngine(new SearchIndex(db.kysely, db.dialect), clock));
    const search = new SearchService({
      db: db.kysely,
      engines: searchEngines,
      pipeline,
      capabilities,
      clock,
      logger,
      retentionMs: config.jobRetentionMs,
      outbox,
      scrapeConcurrency: config.searchScrapeConcurrency,
      searchIndex: config.searchIndex,
    });
    const templates = new TemplateService({
      db: db.kysely,
      clock,
      tasksUsing: (ownerId, refs) => tasksUsingTemplate(db.kysely, ownerId, refs),
    });
    const templateRunner = new TemplateRunner({ templates, scrape, crawl, search });
    const subscriptions = new SubscriptionStore(db.kysely);
    const deliveries = new DeliveryStore(db.kysely, db.dialect, webhookIdsOfTasks);
    const dispatcher = roles.worker
      ? new WebhookDispatcher({
          deliveries,
          clock,
          logger,
          allowPrivateAddresses: config.allowLocalWebhooks,
          userAgent: config.userAgent,
          concurrency: config.webhookConcurrency,
          perSubscription: config.webhookSubscriptionConcurrency,
          perOwner: config.webhookOwnerConcurrency,
          perReceiver: config.webhookReceiverConcurrency,
          leaseMs: config.webhookLeaseMs,
          retryUnitMs: config.webhookRetryUnitMs,
          pollMs: config.webhookPollMs,
          outbox,
        })
      : undefined;
    const webhooks = new WebhookService({
      subscriptions,
      deliveries,
      clock,
      allowPrivateAddresses: config.allowLocalWebhooks,
      testLimit: new TestRateLimit({
        perSubscription: config.webhookTestPerMinute,
        perOwner: config.webhookTestPerMinutePerKey,
      }),
      onDeliveryQueued: () => dispatcher?.notify(),
    });
    const tasks = new TaskService({
      db: db.kysely,
      clock,
      subscriptions,
      webhooks,
      crawls: crawlStore,
      capabilities,
      targets: { allowPrivate: config.allowLocalTargets },
      searchRefusals: (request) => search.refusals(request),
      templates,
      retentionMs: config.jobRetentionMs,
      onChange: () => scheduler?.notify(),
      outbox,
    });
    const monitorStore = new MonitorStore(db.kysely, outbox);
    const checkRunner = roles.worker
      ? new CheckRunner({
          store: monitorStore,
          pipeline,
          clock,
          logger,
          concurrency: config.monitorCheckConcurrency,
          pollMs: config.monitorPollMs,
          leaseMs: config.monitorCheckLeaseMs,
          ...(llm ? { llm } : {}),
          onCheckEnded: (executionId) => scheduler?.checkEnded(executionId),
        })
      : undefined;
    const monitors = new MonitorService({
      store: monitorStore,
      clock,
      tasks,
      capabilities,
      targets: { allowPrivate: config.allowLocalTargets },
      onCheckQueued: () => checkRunner?.notify(),
      onScheduleChanged: () => scheduler?.notify(),
      notifications: notificationLookup(db.kysely),
    });
    const scheduler = roles.worker
      ? new Scheduler({
          db: db.kysely,
          clock,
          logger,
          scrape,
          crawl,
          search,
          templates,
          graceMs: config.schedulerGraceMs,
          tickMs: config.schedulerTickMs,
          staleScrapeMs: INTERRUPTED_SCRAPE_MS,
          staleSearchMs: INTERRUPTED_SEARCH_MS,
          outbox,
          monitorChecks: {
            queue: async (task, execution) => {
              const monitor = await monitorStore.byTaskId(task.id);
              if (!monitor) throw new Error('The monitor of this task was deleted');
              await monitorStore.queueScheduledCheck(monitor, execution, clock().toISOString());
              checkRunner?.notify();
            },
            states: (ids) => monitorStore.states(ids),
          },
        })
      : undefined;
    const server = await buildServer({
      logger,
      keys,
      bodyLimitBytes: config.bodyLimitBytes,
      limits: {
        requestTimeoutMs: config.httpRequestTimeoutMs,
        headersTimeoutMs: config.httpHeadersTimeoutMs,
        keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs,
        maxConnections: config.httpMaxConnections,
      },
      version: VERSION,
      probeStore: () => sql`select 1`.execute(db.kysely),
      beforeValidation: templateExpansion(templates),
      routes: [
        scrapeRoutes(scrape, config.publicUrl),
        crawlRoutes(crawl, config.publicUrl),
        batchRoutes(batch, config.publicUrl, config.batchBodyLimitBytes),
        mapRoutes(map),
        searchRoutes(search, config.publicUrl),
        templateRoutes(templates, templateRunner, config.publicUrl),
        screenshotRoutes(screenshots),
        webhookRoutes(webhooks),
        taskRoutes(tasks),
        monitorRoutes(monitors),
        firecrawlRoutes({
          scrape,
          crawl,
          batch,
          changes: new ChangeTrackingStore(db.kysely),
          monitors,
          map,
          search,
          publicUrl: config.publicUrl,
          batchBodyLimitBytes: config.batchBodyLimitBytes,
          usage: (ownerId) => ownerUsage(db.kysely, ownerId),
          maxConcurrency: config.crawlConcurrency,
          maxFileBytes: config.scrapeMaxBytes,
        }),
      ],
    });
    // Background work, like the loops below: an api-only process leaves it to the workers on its store.
    const sweeper = roles.worker
      ? startSweeper({
          db: db.kysely,
          cache,
          crawls: crawlStore,
          clock,
          logger,
          cacheTtlMs: config.cacheTtlMs,
          intervalMs: 10 * 60_000,
          outbox,
        })
      : undefined;
    // SQLite indexes saved pages in batches; every process that saves pages flushes them (docs/search.md, "Indexing").
    const ftsFlusher =
      config.searchIndex && db.dialect === 'sqlite'
        ? new FtsFlusher(db.kysely, config.searchFtsFlushMs, logger)
        : undefined;
    ftsFlusher?.start();
    runner?.start();
    dispatcher?.start();
    scheduler?.start();
    checkRunner?.start();
    return {
      server,
      db,
      keys,
      runner,
      dispatcher,
      scheduler,
      monitorChecks: checkRunner,
      sweeper,
      outbox,
      browser: browserPool,
      extractor,
      async close() {
        // Stop taking requests first, then let the worker finish the pages it holds.
        await server.close();
        await scheduler?.stop();
        await checkRunner?.stop();
        await runner?.stop();
        await dispatcher?.stop();
        await closeWebhookAgents();
        await sweeper?.stop();
        await ftsFlusher?.stop();
        await closeDispatchers();
        await searxng?.close();
        await browserPool.close();
        await extractor.close();
        await ocr?.engine.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
