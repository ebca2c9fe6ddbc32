// The sources of a map: the collector that merges them in order, and the sitemaps of a site (robots.txt's
// Sitemap lines, else /sitemap.xml; indexes followed to a depth, each sitemap once, under the caps of schema.ts).
import { chooseProxy, type ProxyPolicy, type Resolver } from '../net/address-guard.js';
import { fetchPage, FetchError } from '../fetch/index.js';
import { normalizeUrl } from '../crawl/scope/index.js';
import { isReadable, SitemapReader, type ByteBudget, type SitemapStop } from './sitemap.js';
import { MAP_LIMITS } from './schema.js';

export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

/**
 * The map's links in the order they were found, each once (by its normalized URL), only those in scope, never
 * more than `limit`.
 */
export class LinkCollector {
  private readonly byUrl = new Map<string, MapLink>();

  constructor(
    private readonly limit: number,
    /** The normalized URL when `raw` is an http(s) URL of the site, else undefined. */
    readonly inScope: (raw: string, base?: string) => string | undefined,
  ) {}

  get full(): boolean {
    return this.byUrl.size >= this.limit;
  }

  get size(): number {
    return this.byUrl.size;
  }

  has(url: string): boolean {
    return this.byUrl.has(url);
  }

  /** Adds an already normalized, in-scope URL; answers true when it was new (and there was room). */
  addNormalized(url: string): boolean {
    if (this.full || this.byUrl.has(url)) return false;
    this.byUrl.set(url, { url });
    return true;
  }

  /** The entry of `url`, if collected (to give the start page its title). */
  entry(url: string): MapLink | undefined {
    return this.byUrl.get(url);
  }

  links(): MapLink[] {
    return [...this.byUrl.values()];
  }
}

/** How the sitemaps went, for the answer's `sources.sitemaps`. */
export interface SitemapStats {
  /** Sitemaps fetched and read (a urlset, an index or a text list). */
  read: number;
  /** Sitemaps that could not be fetched, answered other than 2xx, or were not sitemaps. */
  failed: number;
  /** Sitemaps named but not fetched: past the depth or count cap, or already read (a loop). */
  skipped: number;
  /** Links they added. */
  urls: number;
  /** Set when a cap (not the end of the sitemaps) stopped the reading. */
  capped?: 'bytes' | 'entries' | 'sitemaps' | 'time';
}

export interface SitemapFetchSettings {
  userAgent: string;
  allowPrivateAddresses: boolean;
  maxRedirects: number;
  proxies?: ProxyPolicy;
  resolve?: Resolver;
}

export interface SitemapRun {
  /** The start URL (normalized); /sitemap.xml of its origin when robots.txt lists none. */
  startUrl: string;
  /** robots.txt's Sitemap lines of the start URL's origin (empty: none, or no robots.txt). */
  robotsSitemaps: () => Promise<string[]>;
  collector: LinkCollector;
  /** When the call must be done (ms since the epoch). */
  deadline: number;
  signal?: AbortSignal;
  fetch: SitemapFetchSettings;
  /** Told of an error that is not a fetch's (a fault of ours), to be logged; the sitemap counts as failed. */
  onUnexpected?: (error: unknown, url: string) => void;
}

interface Task {
  url: string;
  depth: number;
  /** The head task writes to the collector as it reads; the others keep their links until they become head. */
  live: boolean;
  buffer: string[];
  seen: Set<string>;
  children: string[];
  /** Children named past the count cap, which could never be fetched. */
  childrenDropped: number;
  done: Promise<void>;
}

/** Reads the site's sitemaps into the collector, in order: each sitemap's links before the next sitemap's. */
export async function collectSitemaps(run: SitemapRun): Promise<SitemapStats> {
  const stats: SitemapStats = { read: 0, failed: 0, skipped: 0, urls: 0 };
  const { collector } = run;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  const budget: ByteBudget = { remaining: MAP_LIMITS.totalSitemapBytes };
  let entries = 0;
  const cap = (reason: NonNullable<SitemapStats['capped']>): void => {
    stats.capped ??= reason;
    controller.abort();
  };
  const stopped = (): boolean => controller.signal.aborted || collector.full;

  const take = (url: string): void => {
    if (collector.addNormalized(url)) stats.urls++;
    if (collector.full) controller.abort();
  };
  const makeLive = (task: Task): void => {
    task.live = true;
    for (const url of task.buffer) {
      if (stopped()) break;
      take(url);
    }
    task.buffer = [];
  };

  const visited = new Set<string>();
  let named = 0;
  /** A sitemap was left out for the count cap: it is reported if the reading did not stop at the limit anyway. */
  let overCount = false;
  const queue: Array<{ url: string; depth: number }> = [];
  const enqueue = (raw: string, base: string | undefined, depth: number): void => {
    const url = normalizeUrl(raw, base);
    if (url === undefined) return;
    if (visited.has(url)) {
      stats.skipped++;
      return;
    }
    visited.add(url);
    if (depth > MAP_LIMITS.sitemapDepth || named >= MAP_LIMITS.sitemapsPerCall) {
      stats.skipped++;
      if (named >= MAP_LIMITS.sitemapsPerCall) overCount = true;
      return;
    }
    named++;
    queue.push({ url, depth });
  };

  const start = (next: { url: string; depth: number }): Task => {
    const task: Task = {
      ...next,
      live: false,
      buffer: [],
      seen: new Set(),
      children: [],
      childrenDropped: 0,
      done: Promise.resolve(),
    };
    const onPage = (loc: string): boolean => {
      if (++entries > MAP_LIMITS.sitemapEntriesPerCall) {
        cap('entries');
        return false;
      }
      const url = collector.inScope(loc, task.url);
      if (url === undefined) return true;
      if (task.live) {
        take(url);
        return !stopped();
      }
      if (!task.seen.has(url) && !collector.has(url)) {
        task.seen.add(url);
        task.buffer.push(url);
      }
      return !stopped();
    };
    task.done = readOne(task, onPage, budget, run, controller.signal).then(({ outcome, stoppedBy }) => {
      // A sitemap's own caps (50 MiB, 50,000 <loc>) stop that sitemap alone; the answer names them as the call's caps.
      if (stoppedBy === 'too_large') stats.capped ??= 'bytes';
      else if (stoppedBy === 'entries') stats.capped ??= 'entries';
      if (outcome === 'read') stats.read++;
      else if (outcome === 'failed' && !controller.signal.aborted) stats.failed++;
      if (budget.remaining <= 0) cap('bytes');
    });
    return task;
  };

  try {
    let roots: string[] = [];
    try {
      roots = await untilDeadline(run.robotsSitemaps(), run.deadline, []);
    } catch {
      roots = [];
    }
    if (roots.length === 0) roots = [new URL('/sitemap.xml', run.startUrl).href];
    for (const root of roots) enqueue(root, undefined, 0);

    const running: Task[] = [];
    for (;;) {
      if (Date.now() >= run.deadline) cap('time');
      while (!stopped() && running.length < MAP_LIMITS.sitemapConcurrency && queue.length > 0) {
        const task = start(queue.shift()!);
        running.push(task);
        if (running.length === 1) makeLive(task);
      }
      const head = running.shift();
      if (head === undefined) break;
      await head.done;
      if (!stopped()) {
        if (!head.live) makeLive(head);
        for (const child of head.children) enqueue(child, head.url, head.depth + 1);
        if (head.childrenDropped > 0) {
          stats.skipped += head.childrenDropped;
          overCount = true;
        }
      }
      const next = running[0];
      if (next && !stopped()) makeLive(next);
      if (stopped()) {
        // What is still running stops with the abort; it is awaited so nothing outlives the call.
        await Promise.all(running.map((t) => t.done));
        break;
      }
    }
    if (queue.length > 0 && !collector.full) stats.skipped += queue.length;
    if (overCount && !collector.full) stats.capped ??= 'sitemaps';
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
  return stats;
}

/** One sitemap fetched and read; its child sitemaps go to `task.children`. */
async function readOne(
  task: Task,
  onPage: (loc: string) => boolean,
  budget: ByteBudget,
  run: SitemapRun,
  signal: AbortSignal,
): Promise<{ outcome: 'read' | 'failed'; stoppedBy?: SitemapStop | undefined }> {
  const reader = new SitemapReader(
    {
      page: onPage,
      sitemap: (loc) => {
        if (task.children.length < MAP_LIMITS.sitemapsPerCall) task.children.push(loc);
        else task.childrenDropped++;
      },
    },
    { maxBytes: MAP_LIMITS.sitemapBytes, maxEntries: MAP_LIMITS.sitemapEntries, budget },
  );
  const timeoutMs = run.deadline - Date.now();
  if (timeoutMs <= 0 || signal.aborted) return { outcome: 'failed' };
  try {
    const proxy = chooseProxy(
      undefined,
      run.fetch.proxies ?? { allowlist: [], allowPrivate: run.fetch.allowPrivateAddresses },
    );
    const page = await fetchPage({
      url: task.url,
      timeoutMs,
      proxy: proxy?.url,
      proxyAllowPrivate: proxy?.allowPrivate,
      allowPrivateAddresses: run.fetch.allowPrivateAddresses,
      maxBytes: MAP_LIMITS.sitemapBytes,
      maxRedirects: run.fetch.maxRedirects,
      userAgent: run.fetch.userAgent,
      headers: { accept: 'application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5' },
      signal,
      ...(run.fetch.resolve ? { resolve: run.fetch.resolve } : {}),
      bodySink: (chunk) => reader.write(chunk),
    });
    const summary = await reader.end();
    const readable = page.statusCode >= 200 && page.statusCode < 300 && isReadable(summary);
    return { outcome: readable ? 'read' : 'failed', stoppedBy: summary.stoppedBy };
  } catch (error) {
    // Whatever was read before a failure (a timeout, a cap) is kept; the sitemap still counts as failed.
    // Any error is this sitemap's alone: a map never fails because of one of its sitemaps.
    const summary = await reader.end().catch(() => undefined);
    if (!(error instanceof FetchError) && !signal.aborted) run.onUnexpected?.(error, task.url);
    return { outcome: 'failed', stoppedBy: summary?.stoppedBy };
  }
}

/** `work`, or `fallback` once the deadline passes (the work goes on, unawaited; its errors are dropped). */
export async function untilDeadline<T>(work: Promise<T>, deadline: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, deadline - Date.now()));
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
