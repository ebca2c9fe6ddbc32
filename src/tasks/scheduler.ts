// The scheduler: fires due occurrences exactly once (claimed by task id + scheduled time), runs their
// jobs through the same services as the API, and ends executions when their jobs end; never throws.
import type { SearchService } from '../search/service.js';
import type { TemplateService } from '../templates/service.js';
import { taskRequest } from '../templates/task-request.js';
import { failInterruptedSearch } from '../search/interrupted.js';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { CrawlService } from '../crawl/service.js';
import type { OutboxSignal } from '../events/outbox.js';
import type { ScrapeService } from '../scrape/service.js';
import type { Database } from '../store/schema.js';
import { classifyStoreError } from '../store/store-errors.js';
import { BackgroundLoop } from '../util/background-loop.js';
import { type JobRow, jobById, jobsByIds } from '../jobs/job-store.js';
import { failInterruptedScrape } from '../scrape/interrupted.js';
import type { Clock } from '../util/time.js';
import { nextRun, zonedDay } from './cron/index.js';
import {
  activeExecutions,
  advanceNextRun,
  type ExecutionOutcome,
  insertExecutions,
  lastExecutionNumbers,
  markFired,
  newExecution,
  occurrencesSince,
  TaskStore,
} from './task-store.js';
import type { ExecutionRow, TaskRow } from './views.js';
import { MONITOR_TASK_TYPE } from './schema.js';

/**
 * The checks of monitor tasks (task_type "monitor"), kept by src/monitors: the scheduler fires them like any task,
 * hands each execution to this queue, and ends the execution when its check ended.
 */
export interface MonitorCheckQueue {
  queue(task: TaskRow, execution: ExecutionRow): Promise<void>;
  states(checkIds: readonly string[]): Promise<Map<string, CheckState>>;
}

type CheckState = { state: 'pending' | 'processing' | 'completed' | 'failed'; error: string | null };
type RunningExecution = Pick<ExecutionRow, 'id' | 'job_uuid' | 'job_kind' | 'started_at'>;

export const AUTO_PAUSE_AFTER = 5;
export const MAX_QUEUED = 10;
/** Due tasks claimed per transaction. */
const FIRE_BATCH = 500;

export interface SchedulerOptions {
  db: Kysely<Database>;
  clock: Clock;
  logger: FastifyBaseLogger;
  scrape: ScrapeService;
  crawl: CrawlService;
  search: SearchService;
  /** Expands the templates of template tasks and of payloads that name one. */
  templates: TemplateService;
  /** A run missed by more than this while the service was down is skipped. */
  graceMs: number;
  tickMs: number;
  /** A scrape job still pending this long after it started was interrupted (its process died). */
  staleScrapeMs: number;
  /** The same for a search job (its scrapes take longer). */
  staleSearchMs: number;
  /** The app's outbox signal, given with every event recorded. */
  outbox: OutboxSignal;
  /** Where monitor tasks' executions go (absent: they fail, as a task type this process cannot run). */
  monitorChecks?: MonitorCheckQueue;
}

type Trx = Transaction<Database>;

/**
 * A running execution without a job row this long after it started is stranded. Starting a job
 * takes milliseconds; the margin covers a scheduler still starting a large due set.
 */
const STRANDED_AFTER_MS = 2 * 60_000;

/** Running executions read per query while reconciling. */
const RECONCILE_PAGE = 500;

export class Scheduler {
  private readonly loop: BackgroundLoop;
  private readonly running = new Set<Promise<unknown>>();
  private readonly store: TaskStore;

  constructor(private readonly o: SchedulerOptions) {
    this.loop = new BackgroundLoop({ name: 'scheduler', logger: o.logger, backoffBaseMs: o.tickMs });
    this.store = new TaskStore(o.db, o.outbox);
  }

  start(): void {
    this.loop.start(async () => {
      await this.tick();
      return this.sleepMs();
    });
  }

  notify(): void {
    this.loop.wake();
  }

  /** A monitor's check of this execution ended: the execution ends now, not at the next tick. */
  checkEnded(executionId: string): void {
    const work = this.reconcileOne(executionId).catch((error: unknown) =>
      // The next tick's reconcile ends it.
      this.o.logger.warn({ err: error, executionId }, 'ending the execution of a monitor check failed'),
    );
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  async stop(): Promise<void> {
    if (this.loop.stopped) return;
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  /** One pass: fire everything due (in batches, without pausing between them), then end executions whose jobs ended. */
  async tick(): Promise<void> {
    // Jobs start once the whole due set is claimed: starting them in between would make the
    // later batches wait for the store behind the first batches' job work.
    const toStart: Array<{ task: TaskRow; execution: ExecutionRow }> = [];
    for (;;) {
      const now = this.o.clock();
      const due = await this.store.dueTasks(now.toISOString(), FIRE_BATCH);
      if (due.length === 0) break;
      try {
        toStart.push(...(await this.fireBatch(due, now)));
      } catch (error) {
        // An outage is the loop's to report and back off from; anything else is this batch's.
        if (classifyStoreError(error) !== undefined) throw error;
        this.o.logger.error({ err: error, tasks: due.length }, 'firing scheduled tasks failed');
        break;
      }
      if (due.length < FIRE_BATCH) break;
    }
    for (const { task, execution } of toStart) this.launch(task, execution);
    await this.reconcile(this.o.clock());
  }

  /** How long to sleep: until the next tick, or until the earliest task is due if sooner. */
  private async sleepMs(): Promise<number> {
    const earliest = await this.store.earliestNextRun();
    const at = earliest ? Date.parse(earliest) : Number.POSITIVE_INFINITY;
    return Math.max(0, Math.min(this.o.tickMs, at - this.o.clock().getTime()));
  }

  /**
   * Claims the due occurrence of each task, in one transaction: advances next_execution_at
   * only where no other scheduler did (optimistic check), and inserts the executions under the
   * unique (task, scheduled time) key. Returns the executions to start now.
   */
  private async fireBatch(tasks: TaskRow[], now: Date): Promise<Array<{ task: TaskRow; execution: ExecutionRow }>> {
    const nowIso = now.toISOString();
    return this.o.db.transaction().execute(async (trx) => {
      // Tasks with the same schedule and due time advance together: one statement per group,
      // returning the rows this scheduler advanced (the optimistic check against other schedulers).
      const groups = new Map<string, TaskRow[]>();
      for (const task of tasks) {
        const key = `${task.cron_expression}\u0000${task.timezone}\u0000${task.next_execution_at}`;
        groups.set(key, [...(groups.get(key) ?? []), task]);
      }
      const advancedIds = new Set<string>();
      for (const group of groups.values()) {
        const first = group[0] as TaskRow;
        const next = nextRun(first.cron_expression, first.timezone, now)?.toISOString() ?? null;
        for (const id of await advanceNextRun(
          trx,
          group.map((t) => t.id),
          first.next_execution_at,
          next,
        ))
          advancedIds.add(id);
      }
      const claimed: TaskRow[] = [];
      for (const task of tasks) {
        if (!advancedIds.has(task.id)) continue;
        // Downtime: at most one catch-up run, and only within the grace period.
        if (now.getTime() - Date.parse(task.next_execution_at as string) > this.o.graceMs) continue;
        if (
          task.max_executions_per_day !== null &&
          (await this.countOnDay(trx, task, task.next_execution_at as string)) >= task.max_executions_per_day
        )
          continue;
        claimed.push(task);
      }
      if (claimed.length === 0) return [];
      const ids = claimed.map((t) => t.id);
      const active = await activeExecutions(trx, ids);
      const lastNumber = await lastExecutionNumbers(trx, ids);
      const rows: Array<{ task: TaskRow; execution: ExecutionRow }> = [];
      for (const task of claimed) {
        const mine = active.filter((a) => a.task_id === task.id);
        let status: 'running' | 'pending' = 'running';
        if (mine.length > 0) {
          if (task.concurrency_mode !== 'queue') continue;
          if (mine.filter((a) => a.status === 'pending').length >= MAX_QUEUED) continue;
          status = 'pending';
        }
        rows.push({
          task,
          execution: newExecution(task, {
            id: randomUUID(),
            execution_number: (lastNumber.get(task.id) ?? 0) + 1,
            status,
            scheduled_for: task.next_execution_at as string,
            started_at: status === 'running' ? nowIso : null,
            job_uuid: null,
            triggered_by: 'scheduler',
            created_at: nowIso,
          }),
        });
      }
      if (rows.length === 0) return [];
      const inserted = await insertExecutions(
        trx,
        rows.map((r) => r.execution),
      );
      const fired = rows.filter((r) => inserted.has(r.execution.id));
      await markFired(
        trx,
        fired.map((r) => r.task.id),
        nowIso,
      );
      for (const { task, execution } of fired) {
        this.o.logger.debug(
          {
            taskId: task.id,
            executionId: execution.id,
            scheduledFor: execution.scheduled_for,
            status: execution.status,
          },
          'task fired',
        );
      }
      return fired.filter((r) => r.execution.status === 'running');
    });
  }

  private async countOnDay(trx: Trx, task: TaskRow, occurrence: string): Promise<number> {
    const day = zonedDay(new Date(occurrence), task.timezone);
    const since = new Date(Date.parse(occurrence) - 48 * 3600 * 1000).toISOString();
    const recent = await occurrencesSince(trx, task.id, since);
    return recent.filter((scheduledFor) => zonedDay(new Date(scheduledFor), task.timezone) === day).length;
  }

  /** Starts the execution's job in the background; its end is picked up by reconcile(). */
  private launch(task: TaskRow, execution: ExecutionRow): void {
    const work = this.startJob(task, execution).catch(async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      await this.finish(execution.id, { status: 'failed', error: message }).catch((e: unknown) =>
        this.o.logger.error({ err: e }, 'ending an execution failed'),
      );
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async startJob(task: TaskRow, execution: ExecutionRow): Promise<void> {
    if (task.task_type === MONITOR_TASK_TYPE) {
      if (!this.o.monitorChecks) throw new Error('This process cannot run monitor checks');
      // The check is the job: reconcile() ends the execution when the check runner committed it.
      await this.o.monitorChecks.queue(task, execution);
      return;
    }
    const payload = JSON.parse(task.task_payload) as Record<string, unknown>;
    // Its template expanded as it is now (a template may have a new version since the task was saved); a payload that
    // no longer makes a valid request fails this execution with the reason.
    const prepared = await taskRequest(this.o.templates, task.owner_id, task.task_type, payload);
    const template = prepared.template ? { template: prepared.template } : {};
    if (prepared.type === 'crawl') {
      const created = await this.o.crawl.create(task.owner_id, prepared.request, prepared.template);
      await this.store.setExecutionJob(execution.id, created.job_id);
      return;
    }
    // A scrape or a search runs here: its job's id is set first, and its end is read back by reconcile().
    const jobId = randomUUID();
    await this.store.setExecutionJob(execution.id, jobId);
    try {
      if (prepared.type === 'scrape')
        await this.o.scrape.scrape(task.owner_id, prepared.request, undefined, { jobId, ...template });
      else await this.o.search.search(task.owner_id, prepared.request, undefined, { jobId, ...template });
    } catch (error) {
      // One that failed is recorded on its job, and reconcile() reads it from there; one refused before its job
      // existed (options this deployment no longer serves) ends here.
      if (!(await jobById(this.o.db, jobId))) throw error;
    }
    await this.reconcileOne(execution.id);
  }

  /**
   * Ends running executions whose jobs ended, fails those whose scrape was interrupted, and ends
   * those whose job never came to be; all of them, a page at a time.
   */
  private async reconcile(now: Date): Promise<void> {
    for (let after = ''; ;) {
      const running = await this.store.runningExecutions(after, RECONCILE_PAGE);
      if (running.length === 0) return;
      after = (running.at(-1) as (typeof running)[number]).id;
      const isCheck = (e: (typeof running)[number]) => e.job_kind === MONITOR_TASK_TYPE;
      const ids = (list: typeof running) => list.flatMap((e) => (e.job_uuid === null ? [] : [e.job_uuid]));
      const jobs = new Map((await jobsByIds(this.o.db, ids(running.filter((e) => !isCheck(e))))).map((j) => [j.id, j]));
      const checkIds = ids(running.filter(isCheck));
      const checks =
        checkIds.length > 0 && this.o.monitorChecks ? await this.o.monitorChecks.states(checkIds) : new Map();
      for (const execution of running) {
        const key = execution.job_uuid ?? '';
        await this.reconcileExecution(execution, jobs.get(key), isCheck(execution) ? checks.get(key) : undefined, now);
      }
      if (running.length < RECONCILE_PAGE) return;
    }
  }

  /**
   * Ends one execution if its job or check ended. A job's end reconciles only its own execution: a
   * tick reads every running one, and a tick per ended check cost quadratic time (3,000 monitors due
   * in one minute missed it, bench/monitors).
   */
  private async reconcileOne(executionId: string): Promise<void> {
    const execution = await this.store.runningExecution(executionId);
    if (!execution) return;
    const now = this.o.clock();
    if (execution.job_kind === MONITOR_TASK_TYPE) {
      if (execution.job_uuid === null || !this.o.monitorChecks) return;
      const checks = await this.o.monitorChecks.states([execution.job_uuid]);
      await this.reconcileExecution(execution, undefined, checks.get(execution.job_uuid), now);
      return;
    }
    const job = execution.job_uuid === null ? undefined : await jobById(this.o.db, execution.job_uuid);
    await this.reconcileExecution(execution, job, undefined, now);
  }

  private async reconcileExecution(
    execution: RunningExecution,
    job: JobRow | undefined,
    check: CheckState | undefined,
    now: Date,
  ): Promise<void> {
    if (job) await this.reconcileWithJob(execution.id, job, now);
    else if (check) {
      if (check.state === 'completed')
        await this.finish(execution.id, {
          status: 'completed',
          error: null,
          jobStatus: 'completed',
          counts: { total: 1, completed: 1, failed: 0, credits: 1 },
        });
      else if (check.state === 'failed')
        await this.finish(execution.id, {
          status: 'failed',
          error: check.error ?? 'The check failed',
          jobStatus: 'failed',
          counts: { total: 1, completed: 0, failed: 1, credits: 0 },
        });
    } else await this.endIfStranded(execution, now);
  }

  private async reconcileWithJob(executionId: string, job: JobRow, now: Date): Promise<void> {
    let ended = job;
    if (job.status === 'pending') {
      // Crawls end on their own (their pages are leased); a scrape or a search runs in its process and can be cut off.
      const age = now.getTime() - Date.parse(job.created_at);
      if (job.kind === 'scrape') {
        if (age <= this.o.staleScrapeMs) return;
        await failInterruptedScrape(this.o.db, job.id, now.toISOString(), this.o.outbox);
      } else if (job.kind === 'search') {
        if (age <= this.o.staleSearchMs) return;
        await failInterruptedSearch(this.o.db, job.id, now.toISOString(), this.o.outbox);
      } else return;
      ended = (await jobById(this.o.db, job.id)) ?? job;
      if (ended.status === 'pending') return;
    }
    const ok = ended.status === 'completed';
    await this.finish(executionId, {
      status: ok ? 'completed' : 'failed',
      error: ok ? null : (ended.error_message ?? `The job ended ${ended.status}`),
      jobStatus: ended.status,
      counts: { total: ended.total, completed: ended.completed, failed: ended.failed, credits: ended.credits_used },
    });
  }

  /**
   * An execution marked running whose job never came to be: starting it failed while the store
   * was out of reach (so ending it failed too), or the process died between firing and starting.
   * Nothing would ever end it, and in skip or queue mode it would hold its task for good.
   */
  private async endIfStranded(execution: Pick<ExecutionRow, 'id' | 'started_at'>, now: Date): Promise<void> {
    if (execution.started_at === null || Date.parse(execution.started_at) >= now.getTime() - STRANDED_AFTER_MS) return;
    await this.finish(execution.id, {
      status: 'failed',
      error: 'Interrupted: the job of this execution never started (the store was unreachable or the process stopped)',
    });
  }

  /**
   * Ends one execution with its task's counters, events and auto-pause (one transaction, in the store), then starts the
   * next queued one.
   */
  private async finish(executionId: string, outcome: ExecutionOutcome): Promise<void> {
    const nextQueued = await this.store.endExecution(
      executionId,
      outcome,
      this.o.clock().toISOString(),
      AUTO_PAUSE_AFTER,
    );
    if (nextQueued) this.launch(nextQueued.task, nextQueued.execution);
  }
}
