// Crawl state in the store: jobs, the frontier (crawl_pages) and saved results, each change in one transaction.
// The frontier also carries batch scrapes (jobs of kind `batch_scrape`, src/batch/): their pages are the URLs
// given, all queued at creation; what differs is their events (scrape.*), chosen here by the job's kind.
import { deleteIndexedPagesOfJobs, indexPage, type SearchablePage } from '../search-index/index-store.js';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { OutboxSignal } from '../events/outbox.js';
import {
  createJob,
  deleteJobs,
  endJob,
  expiredJobIds,
  findJob,
  jobById,
  lockJob,
  ownerJobIds,
  pendingJobsOfOwner,
  setJobProgress,
  startJob,
} from '../jobs/job-store.js';
import { crawlEvents } from './events.js';
import { scrapeEvents } from '../scrape/events.js';
import type { NewEvent } from '../events/outbox.js';
import type { Dialect } from '../store/database.js';
import { deleteScreenshotsOfJobs } from '../screenshots/store.js';
import type { Database, JobTable } from '../store/schema.js';
import type { JobRow } from '../jobs/job-store.js';
import type { CrawlOptions, PageJobOptions } from './schema.js';

type Trx = Transaction<Database>;

/** Frontier states: queued -> in_flight -> done | failed | skipped (cancelled or duplicate). */
export type PageState = 'queued' | 'in_flight' | 'done' | 'failed' | 'skipped';

export interface ClaimedPage {
  id: number;
  jobId: string;
  url: string;
  depth: number;
  attempts: number;
}

export interface PageOutcome {
  pageId: number;
  /** The worker that holds the page's lease: a worker that lost its lease records nothing. */
  leaseOwner: string;
  jobId: string;
  /**
   * Saved content (the result item), when the page passed scrape_paths and succeeded; `search`, when the page is to
   * be indexed for the key's searches (docs/search.md), its title, text and language.
   */
  saved?: { url: string; data: Record<string, unknown>; search?: SearchablePage };
  /** The page was fetched and extracted, but only visited (scrape_paths did not match). */
  visited?: boolean;
  /**
   * `code` says why in the crawl's status when this page's failure ends it (BLOCKED_ADDRESS, DNS_FAILURE, HTTP_ERROR…).
   */
  failed?: { error: string; code: string };
  /** In-scope links found on the page, already normalized and filtered, in page order. */
  links: string[];
  linkDepth: number;
  /** Another URL the page answered at (after redirects): marked done so it is not visited again. */
  alias?: string;
  limit: number;
  now: string;
  retentionMs: number;
}

/** What finishPage did with an outcome. */
export interface PageRecord {
  /** False when the page was no longer this worker's or its crawl had ended: nothing was written. */
  recorded: boolean;
  /**
   * Pages the crawl may still admit under its limit, after this page's links. `total` only grows,
   * so once this is 0 no later page of the crawl can admit a link.
   */
  room?: number;
}

export type CrawlJob = JobTable;

/** The kinds of job whose pages live on the frontier: crawls, and batch scrapes (their given URLs). */
export const FRONTIER_KINDS = ['crawl', 'batch_scrape'] as const;
export type FrontierKind = (typeof FRONTIER_KINDS)[number];

export function isFrontierKind(kind: string): kind is FrontierKind {
  return (FRONTIER_KINDS as readonly string[]).includes(kind);
}

/** The options a frontier job was created with, by kind (as stored with its job). */
export type FrontierJobOptions =
  | { kind: 'crawl'; resolved: CrawlOptions; ownerId: string }
  | { kind: 'batch_scrape'; resolved: PageJobOptions; ownerId: string };

type JobEventOf = (job: JobRow) => NewEvent;

/** Each frontier kind's events: a crawl's are crawl.*, a batch scrape's scrape.* (docs/webhooks.md). */
const KIND_EVENTS: Record<
  FrontierKind,
  {
    started: (job: JobRow, at: string) => NewEvent;
    completed: JobEventOf;
    failed: JobEventOf;
    cancelled: JobEventOf;
  }
> = {
  crawl: {
    started: (job, at) => crawlEvents['crawl.started'](job, at),
    completed: crawlEvents['crawl.completed'],
    failed: crawlEvents['crawl.failed'],
    cancelled: crawlEvents['crawl.cancelled'],
  },
  batch_scrape: {
    started: (job, at) => scrapeEvents['scrape.started'](job, at),
    completed: scrapeEvents['scrape.completed'],
    failed: scrapeEvents['scrape.failed'],
    cancelled: scrapeEvents['scrape.cancelled'],
  },
};

/** A new frontier page row: unleased, available from `now`, never tried. */
function newPage(
  jobId: string,
  url: string,
  depth: number,
  state: 'queued' | 'skipped',
  now: string,
  error: string | null,
) {
  return {
    job_id: jobId,
    url,
    depth,
    state,
    attempts: 0,
    available_at: now,
    lease_until: null,
    lease_owner: null,
    error,
  };
}

/** The events of the job in `row`; a row of another kind is taken as a crawl's (the frontier held only those). */
function eventsOf(row: JobRow) {
  return KIND_EVENTS[isFrontierKind(row.kind) ? row.kind : 'crawl'];
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

/**
 * Up to `max` crawls with a page ready to claim, by a loose index scan of crawl_pages_queue: one
 * index probe per crawl (the next job id after the last), where SELECT DISTINCT would read
 * every queued page of every crawl on each claim.
 */
async function crawlsWithQueuedPages(trx: Trx, now: string, max: number): Promise<string[]> {
  const nextAfter = (after: RawBuilder<unknown> | undefined) => sql`(
    select job_id from crawl_pages
    where state = 'queued' and available_at <= ${now}${after ? sql` and job_id > ${after}` : sql``}
    order by job_id limit 1)`;
  const result = await sql<{ job_id: string }>`
    with recursive queued(job_id, n) as (
      select ${nextAfter(undefined)}, 1
      union all
      select ${nextAfter(sql.ref('queued.job_id'))}, n + 1 from queued where queued.job_id is not null and n < ${max}
    )
    select job_id from queued where job_id is not null`.execute(trx);
  return result.rows.map((r) => r.job_id);
}

function addMs(isoTime: string, ms: number): string {
  return new Date(Date.parse(isoTime) + ms).toISOString();
}

export class CrawlStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    /** The app's outbox signal, given with every event recorded (tests may go without). */
    private readonly outbox?: OutboxSignal,
  ) {}

  /** The job row, its seed page and crawl.created, in one transaction. */
  async create(input: {
    id: string;
    ownerId: string;
    options: CrawlOptions;
    request: Record<string, unknown>;
    now: string;
    retentionMs: number;
  }): Promise<void> {
    const { id, ownerId, options, now } = input;
    await this.db.transaction().execute(async (trx) => {
      const job = {
        id,
        ownerId,
        kind: 'crawl' as const,
        status: 'pending',
        url: options.seed,
        options: { request: input.request, resolved: options },
        createdAt: now,
      };
      await createJob(
        trx,
        { ...job, expiresAt: addMs(now, input.retentionMs), total: 1 },
        [crawlEvents['crawl.created']({ id, owner_id: ownerId, url: options.seed, created_at: now })],
        this.outbox,
      );
      await trx
        .insertInto('crawl_pages')
        .values(newPage(id, options.seed, 0, 'queued', now, null))
        .execute();
    });
  }

  /**
   * A batch scrape: the job row (kind `batch_scrape`, `url` its first URL), one queued page per URL (normalized,
   * distinct, in order; depth 0) and scrape.created, in one transaction. Its pages are never added to later.
   */
  async createBatch(input: {
    id: string;
    ownerId: string;
    urls: readonly string[];
    options: PageJobOptions;
    request: Record<string, unknown>;
    now: string;
    retentionMs: number;
  }): Promise<void> {
    const { id, ownerId, urls, now } = input;
    const first = urls[0];
    if (first === undefined) throw new Error('a batch needs at least one URL');
    await this.db.transaction().execute(async (trx) => {
      const facts = { id, owner_id: ownerId, url: first, created_at: now, kind: 'batch_scrape' };
      await createJob(
        trx,
        {
          id,
          ownerId,
          kind: 'batch_scrape',
          status: 'pending',
          url: first,
          options: { request: input.request, resolved: input.options },
          createdAt: now,
          expiresAt: addMs(now, input.retentionMs),
          total: urls.length,
        },
        [scrapeEvents['scrape.created'](facts)],
        this.outbox,
      );
      // Chunks keep each insert under SQLite's variable limit; ids follow the given order (claims go by id).
      for (let i = 0; i < urls.length; i += 500) {
        await trx
          .insertInto('crawl_pages')
          .values(urls.slice(i, i + 500).map((url) => newPage(id, url, 0, 'queued', now, null)))
          .execute();
      }
    });
  }

  async find(ownerId: string, id: string, kind: FrontierKind = 'crawl'): Promise<CrawlJob | undefined> {
    return findJob(this.db, ownerId, id, kind);
  }

  /** The options a crawl or a batch was created with (as stored with its job), with the job's kind. */
  async options(jobId: string): Promise<FrontierJobOptions | undefined> {
    const row = await jobById(this.db, jobId);
    if (!row) return undefined;
    const { resolved } = JSON.parse(row.options) as { resolved: CrawlOptions & PageJobOptions };
    return row.kind === 'batch_scrape'
      ? { kind: 'batch_scrape', resolved, ownerId: row.owner_id }
      : { kind: 'crawl', resolved, ownerId: row.owner_id };
  }

  async results(jobId: string, skip: number, pageSize: number): Promise<Array<Record<string, unknown>>> {
    const rows = await this.db
      .selectFrom('crawl_results')
      .select('data')
      .where('job_id', '=', jobId)
      .orderBy('seq')
      .limit(pageSize)
      .offset(skip)
      .execute();
    return rows.map((r) => JSON.parse(r.data) as Record<string, unknown>);
  }

  /** An owner's running jobs of `kind`, oldest first, at most `max` (Firecrawl's GET /v2/crawl/active). */
  async running(ownerId: string, kind: FrontierKind, now: string, max: number): Promise<CrawlJob[]> {
    return pendingJobsOfOwner(this.db, ownerId, kind, now, max);
  }

  /** The failed pages of a job, in the order they were found, at most `max`: their id, URL and error. */
  async failedPages(jobId: string, max: number): Promise<Array<{ id: number; url: string; error: string | null }>> {
    return this.db
      .selectFrom('crawl_pages')
      .select(['id', 'url', 'error'])
      .where('job_id', '=', jobId)
      .where('state', '=', 'failed')
      .orderBy('id')
      .limit(max)
      .execute();
  }

  /**
   * The URLs the results of `ownerId`'s crawls hold that match one of the LIKE `patterns` (POST /v1/map with
   * `use_index`), each once, in the order they were first saved, at most `max`. Never another owner's.
   */
  async resultUrlsOfOwner(ownerId: string, patterns: readonly string[], max: number, now: string): Promise<string[]> {
    if (patterns.length === 0 || max <= 0) return [];
    const rows = await this.db
      .selectFrom('crawl_results')
      .select('url')
      .select((eb) => eb.fn.min('seq').as('first_seq'))
      .where('job_id', 'in', ownerJobIds(this.db, ownerId, ['crawl', 'batch_scrape'], now))
      .where((eb) => eb.or(patterns.map((p) => eb('url', 'like', p))))
      .groupBy('url')
      .orderBy('first_seq')
      .limit(max)
      .execute();
    return rows.map((r) => r.url);
  }

  /**
   * Extends the leases of the pages `owner` is working on (the heartbeat of a live worker) and
   * returns those it still holds: a page missing from the answer was taken back (its lease ran
   * out) or finished, and the worker must stop it. Only the pages named are renewed, so a page
   * the worker gave up on is left to run out.
   */
  async renewLeases(owner: string, until: string, pageIds: readonly number[]): Promise<Set<number>> {
    if (pageIds.length === 0) return new Set();
    const rows = await this.db
      .updateTable('crawl_pages')
      .set({ lease_until: until })
      .where('id', 'in', [...pageIds])
      .where('state', '=', 'in_flight')
      .where('lease_owner', '=', owner)
      .returning('id')
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Gives a page `owner` holds back to the queue at once (its worker stopped it), if it still holds it. */
  async release(pageId: number, owner: string): Promise<void> {
    await this.db
      .updateTable('crawl_pages')
      .set({ state: 'queued', lease_until: null, lease_owner: null })
      .where('id', '=', pageId)
      .where('state', '=', 'in_flight')
      .where('lease_owner', '=', owner)
      .execute();
  }

  /**
   * Gives back every page leased to `owner` but those it is working on (`keep`): pages of a claim
   * whose commit went through while its answer was lost (the connection dropped during COMMIT),
   * which the worker cannot know it holds. Returns how many were given back.
   */
  async releaseUnworked(owner: string, keep: readonly number[]): Promise<number> {
    let query = this.db
      .updateTable('crawl_pages')
      .set({ state: 'queued', lease_until: null, lease_owner: null })
      .where('state', '=', 'in_flight')
      .where('lease_owner', '=', owner);
    if (keep.length > 0) query = query.where('id', 'not in', [...keep]);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Puts pages whose lease ran out (their worker died) back in the queue. */
  async releaseExpiredLeases(now: string): Promise<number> {
    const result = await this.db
      .updateTable('crawl_pages')
      .set({ state: 'queued', lease_until: null, lease_owner: null })
      .where('state', '=', 'in_flight')
      .where('lease_until', '<', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Leases up to `max` queued pages, spread over the crawls that have work so that one big
   * crawl cannot starve a small one; at most `perJob` in flight per crawl. Marks crawls whose
   * first page this is as started (crawl.started).
   */
  async claim(input: {
    owner: string;
    now: string;
    leaseMs: number;
    max: number;
    perJob: number;
  }): Promise<ClaimedPage[]> {
    if (input.max <= 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const candidates = await crawlsWithQueuedPages(trx, input.now, 200);
      if (candidates.length === 0) return [];
      const inFlight = await trx
        .selectFrom('crawl_pages')
        .select(['job_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('state', '=', 'in_flight')
        .where('job_id', 'in', candidates)
        .groupBy('job_id')
        .execute();
      const busy = new Map(inFlight.map((r) => [r.job_id, Number(r.n)]));
      // The crawls with the fewest pages in flight go first, so a slot freed by a big crawl
      // goes to a small one that is waiting; ties are shuffled so no crawl is always first.
      shuffle(candidates);
      candidates.sort((a, b) => (busy.get(a) ?? 0) - (busy.get(b) ?? 0));
      const share = Math.max(1, Math.ceil(input.max / candidates.length));
      const claimed: ClaimedPage[] = [];
      for (const jobId of candidates) {
        const room = Math.min(share, input.perJob - (busy.get(jobId) ?? 0), input.max - claimed.length);
        if (room <= 0) continue;
        let query = trx
          .selectFrom('crawl_pages')
          .select(['id', 'job_id', 'url', 'depth', 'attempts'])
          .where('job_id', '=', jobId)
          .where('state', '=', 'queued')
          .where('available_at', '<=', input.now)
          .orderBy('id')
          .limit(room);
        // Several workers on PostgreSQL: each takes rows no one else holds.
        if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
        const rows = await query.execute();
        if (rows.length === 0) continue;
        await trx
          .updateTable('crawl_pages')
          .set({ state: 'in_flight', lease_until: addMs(input.now, input.leaseMs), lease_owner: input.owner })
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        for (const r of rows)
          claimed.push({ id: Number(r.id), jobId: r.job_id, url: r.url, depth: r.depth, attempts: r.attempts });
        await this.markStarted(trx, jobId, input.now);
        if (claimed.length >= input.max) break;
      }
      return claimed;
    });
  }

  private async markStarted(trx: Trx, jobId: string, now: string): Promise<void> {
    await startJob(trx, jobId, now, (job) => eventsOf(job).started(job, now), this.outbox);
  }

  /** Gives a page back to the queue for another attempt at `availableAt`. */
  async retry(pageId: number, owner: string, availableAt: string, error: string): Promise<void> {
    await this.db
      .updateTable('crawl_pages')
      .set((eb) => ({
        state: 'queued',
        lease_until: null,
        lease_owner: null,
        available_at: availableAt,
        error,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', pageId)
      .where('state', '=', 'in_flight')
      .where('lease_owner', '=', owner)
      .execute();
  }

  /**
   * Records what became of one page, atomically: its state, its saved result, the new links it
   * admitted (never past `limit`), the job's counters and, when it was the last page, the job's
   * end with its event. A page whose lease was lost, or whose crawl is no longer running,
   * changes nothing but its own state.
   */
  async finishPage(outcome: PageOutcome): Promise<PageRecord> {
    return this.db.transaction().execute(async (trx) => {
      // Locked: serializes the page completions of one crawl.
      const job = await lockJob(trx, this.dialect, outcome.jobId);
      const state: PageState = outcome.failed ? 'failed' : 'done';
      if (!job || job.status !== 'pending') {
        await trx
          .updateTable('crawl_pages')
          .set({ state: 'skipped', lease_until: null, lease_owner: null })
          .where('id', '=', outcome.pageId)
          .where('state', '=', 'in_flight')
          .where('lease_owner', '=', outcome.leaseOwner)
          .execute();
        return { recorded: false };
      }
      const mine = await trx
        .updateTable('crawl_pages')
        .set({ state, lease_until: null, lease_owner: null, error: outcome.failed?.error ?? null })
        .where('id', '=', outcome.pageId)
        .where('state', '=', 'in_flight')
        .where('lease_owner', '=', outcome.leaseOwner)
        .executeTakeFirst();
      if (Number(mine.numUpdatedRows) !== 1) return { recorded: false };

      if (outcome.saved) {
        await trx
          .insertInto('crawl_results')
          .values({
            job_id: outcome.jobId,
            url: outcome.saved.url,
            data: JSON.stringify(outcome.saved.data),
            created_at: outcome.now,
          })
          .execute();
        const search = outcome.saved.search;
        if (search)
          await indexPage(trx, {
            ...search,
            ownerId: job.owner_id,
            jobId: outcome.jobId,
            indexedAt: outcome.now,
          });
      }
      if (outcome.alias) await this.markAlias(trx, outcome.jobId, outcome.alias, outcome.now);
      const admitted = await this.admitLinks(
        trx,
        outcome.jobId,
        outcome.links,
        outcome.linkDepth,
        outcome.limit - job.total,
        outcome.now,
      );

      const progress = {
        total: job.total + admitted,
        completed: job.completed + (outcome.saved ? 1 : 0),
        failed: job.failed + (outcome.failed ? 1 : 0),
        credits_used: job.credits_used + (outcome.saved ? 1 : 0),
      };
      // The seed's failure is the crawl's reason if it ends failed.
      const firstError =
        outcome.failed && outcome.linkDepth === 1 && job.error_message === null
          ? { message: outcome.failed.error, code: outcome.failed.code }
          : undefined;
      await setJobProgress(trx, outcome.jobId, { ...progress, at: outcome.now, firstError });

      // Existence, not a count: a big crawl can have tens of thousands of queued pages.
      const open = await trx
        .selectFrom('crawl_pages')
        .select('id')
        .where('job_id', '=', outcome.jobId)
        .where('state', 'in', ['queued', 'in_flight'])
        .limit(1)
        .executeTakeFirst();
      if (open === undefined) {
        const seedError =
          job.error_message !== null ? { message: job.error_message, code: job.error_code } : firstError;
        await this.finishJob(trx, outcome.jobId, progress.completed > 0, seedError, outcome);
      }
      return { recorded: true, room: outcome.limit - job.total - admitted };
    });
  }

  /**
   * Takes `url` for a page being fetched (a redirect target): true when no page of the crawl
   * has it yet, so the fetch may go on; false when it is known, so it would be a second visit.
   */
  async claimAlias(jobId: string, url: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('crawl_pages')
      .values(newPage(jobId, url, 0, 'skipped', now, 'alias'))
      .onConflict((oc) => oc.columns(['job_id', 'url']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return result !== undefined;
  }

  private async markAlias(trx: Trx, jobId: string, url: string, now: string): Promise<void> {
    const existing = await trx
      .selectFrom('crawl_pages')
      .select(['id', 'state'])
      .where('job_id', '=', jobId)
      .where('url', '=', url)
      .executeTakeFirst();
    if (!existing) {
      // Not counted in `total`: it is the same page under another address, not another visit.
      await trx
        .insertInto('crawl_pages')
        .values(newPage(jobId, url, 0, 'skipped', now, 'alias'))
        .execute();
    } else if (existing.state === 'queued') {
      await trx
        .updateTable('crawl_pages')
        .set({ state: 'skipped', error: 'duplicate of a redirect target' })
        .where('id', '=', existing.id)
        .execute();
    }
  }

  /** Inserts the links not yet known, at most `room`; returns how many were admitted. */
  private async admitLinks(
    trx: Trx,
    jobId: string,
    links: string[],
    depth: number,
    room: number,
    now: string,
  ): Promise<number> {
    if (room <= 0 || links.length === 0) return 0;
    const unique = [...new Set(links)];
    const known = new Set<string>();
    // Chunks keep the IN list under SQLite's variable limit.
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const rows = await trx
        .selectFrom('crawl_pages')
        .select('url')
        .where('job_id', '=', jobId)
        .where('url', 'in', chunk)
        .execute();
      for (const r of rows) known.add(r.url);
    }
    const fresh = unique.filter((u) => !known.has(u)).slice(0, room);
    for (let i = 0; i < fresh.length; i += 200) {
      const chunk = fresh.slice(i, i + 200);
      await trx
        .insertInto('crawl_pages')
        .values(chunk.map((url) => newPage(jobId, url, depth, 'queued', now, null)))
        .execute();
    }
    return fresh.length;
  }

  /**
   * Ends the crawl after its last page: completed if any page was saved, else failed with the seed's error if it had
   * one.
   */
  private async finishJob(
    trx: Trx,
    jobId: string,
    anySaved: boolean,
    seedError: { message: string; code: string | null } | undefined,
    outcome: PageOutcome,
  ): Promise<void> {
    const status: 'completed' | 'failed' = anySaved ? 'completed' : 'failed';
    // Why it failed: the seed's failure, else this last page's, else nothing was saved.
    const reason =
      seedError ??
      (outcome.failed
        ? { message: outcome.failed.error, code: outcome.failed.code }
        : { message: 'No page could be saved', code: 'NO_PAGE_SAVED' });
    const end = {
      status,
      at: outcome.now,
      expiresAt: addMs(outcome.now, outcome.retentionMs),
      error: status === 'failed' ? reason : null,
    };
    await endJob(trx, jobId, end, (job) => eventsOf(job)[status](job), this.outbox);
  }

  /**
   * Cancels a running crawl (or batch, with `kind`); queued pages are dropped, pages in flight finish without being
   * saved.
   */
  async cancel(
    ownerId: string,
    jobId: string,
    now: string,
    retentionMs: number,
    kind: FrontierKind = 'crawl',
  ): Promise<'cancelled' | 'finished' | 'missing'> {
    return this.db.transaction().execute(async (trx) => {
      const job = await lockJob(trx, this.dialect, jobId, { ownerId, kind });
      if (!job) return 'missing';
      if (job.status !== 'pending') return 'finished';
      await endJob(
        trx,
        jobId,
        { status: 'cancelled', at: now, expiresAt: addMs(now, retentionMs) },
        KIND_EVENTS[kind].cancelled,
        this.outbox,
      );
      // Pages a claim is taking right now are left to it (PostgreSQL: SKIP LOCKED): that claim locks its pages, then
      // this job's row to mark it started, the reverse of this order, so waiting for them here deadlocked. Once
      // claimed they are in flight, and their outcome is not saved (the job has ended).
      let queued = trx.selectFrom('crawl_pages').select('id').where('job_id', '=', jobId).where('state', '=', 'queued');
      if (this.dialect === 'postgres') queued = queued.forUpdate().skipLocked();
      await trx
        .updateTable('crawl_pages')
        .set({ state: 'skipped', error: 'cancelled' })
        .where('id', 'in', queued)
        .execute();
      return 'cancelled';
    });
  }

  /** Deletes crawls and batch scrapes past expires_at with their frontier and results (up to 1000 of each kind). */
  async deleteExpired(now: string): Promise<number> {
    let deleted = 0;
    for (const kind of FRONTIER_KINDS) {
      const ids = await expiredJobIds(this.db, kind, now, 1000);
      if (ids.length === 0) continue;
      await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('crawl_results').where('job_id', 'in', ids).execute();
        await deleteIndexedPagesOfJobs(trx, ids);
        await deleteScreenshotsOfJobs(trx, ids);
        await trx.deleteFrom('crawl_pages').where('job_id', 'in', ids).execute();
        await deleteJobs(trx, ids);
      });
      deleted += ids.length;
    }
    return deleted;
  }
}
