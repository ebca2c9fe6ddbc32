// Runs monitor checks (docs/monitors.md): leases due checks from the store, fetches the target through the page
// pipeline (the address guard, the engines, the extraction threads), compares with the baseline, and commits the
// snapshot, change and events at once. A runner that dies mid-check leaves a lease that runs out; another runner then
// does the check again, and only one commit is kept. Never throws.
import type { FastifyBaseLogger } from 'fastify';
import { type PipelineDeps, runPage } from '../scrape/pipeline.js';
import { resolvePageOptions } from '../scrape/schema.js';
import { BackgroundLoop } from '../util/background-loop.js';
import type { Clock } from '../util/time.js';
import { type Baseline, type ChangeDraft, compare, contentHash, type Observation } from './compare.js';
import { monitorEvents, type MonitorFacts } from './events.js';
import { judgeWithModel } from './model-judge.js';
import { NORMALIZE_LIMITS, normalizeText } from './normalize.js';
import type { LlmExtractor } from '../scrape/structured/llm/index.js';
import { type CheckResult, type CheckRow, MAX_CHECK_ATTEMPTS, type MonitorRow, MonitorStore } from './store.js';
import { monitorSettings } from './settings.js';

export interface CheckRunnerOptions {
  store: MonitorStore;
  pipeline: PipelineDeps;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Checks run at once. */
  concurrency: number;
  /** How often the store is asked for checks when nothing woke the runner. */
  pollMs: number;
  /** The model that judges text changes, when one is configured. */
  llm?: LlmExtractor;
  /** How long a claimed check is held without news from its runner; renewed every third of it while the check runs. */
  leaseMs: number;
  /** Told when a check of an execution ended: the scheduler ends that execution without waiting for its next tick. */
  onCheckEnded?: (executionId: string) => void;
}

const STATUS_GONE = new Set([404, 410]);

class CheckFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class CheckRunner {
  private readonly loop: BackgroundLoop;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly o: CheckRunnerOptions) {
    this.loop = new BackgroundLoop({ name: 'monitor checks', logger: o.logger, backoffBaseMs: o.pollMs });
  }

  start(): void {
    this.loop.start(async () => {
      await this.step();
      return this.o.pollMs;
    });
  }

  notify(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  /** Claims as many checks as there are free slots and starts them. */
  private async step(): Promise<void> {
    const free = this.o.concurrency - this.running.size;
    if (free <= 0) return;
    const now = this.o.clock();
    const leaseUntil = new Date(now.getTime() + this.o.leaseMs).toISOString();
    const claimed = await this.o.store.claim(now.toISOString(), leaseUntil, free);
    for (const check of claimed) {
      const work = this.run(check).catch((error: unknown) =>
        this.o.logger.error({ err: error, checkId: check.id }, 'monitor check failed to commit'),
      );
      this.running.add(work);
      void work.finally(() => {
        this.running.delete(work);
        this.loop.wake();
      });
    }
  }

  private async run(check: CheckRow & { lease_token: string }): Promise<void> {
    // The lease is renewed while the check runs: only a runner that stopped (a crash, a kill) lets it run out.
    const renew = setInterval(
      () => {
        const until = new Date(this.o.clock().getTime() + this.o.leaseMs).toISOString();
        this.o.store
          .renew(check.id, check.lease_token, until)
          .catch((error: unknown) =>
            this.o.logger.warn({ err: error, checkId: check.id }, 'renewing a check lease failed'),
          );
      },
      Math.max(100, Math.floor(this.o.leaseMs / 3)),
    );
    try {
      await this.runLeased(check);
    } finally {
      clearInterval(renew);
    }
  }

  private async runLeased(check: CheckRow & { lease_token: string }): Promise<void> {
    const monitor = await this.o.store.byId(check.monitor_id);
    if (!monitor) return;
    const target = monitorSettings(monitor).target;
    let result: CheckResult;
    if (check.attempts > MAX_CHECK_ATTEMPTS) {
      result = this.failure(
        monitor,
        check,
        target.url,
        new CheckFailure('CHECK_INTERRUPTED', `The check was interrupted ${MAX_CHECK_ATTEMPTS} times`),
      );
    } else {
      try {
        result = await this.checkPage(monitor, check);
      } catch (error) {
        result = this.failure(monitor, check, target.url, error);
      }
    }
    const committed = await this.o.store.commit(check, check.lease_token, result);
    if (!committed) this.o.logger.warn({ checkId: check.id }, 'monitor check taken over by another runner');
    if (check.execution_id !== null) this.o.onCheckEnded?.(check.execution_id);
  }

  private async checkPage(monitor: MonitorRow, check: CheckRow): Promise<CheckResult> {
    const settings = monitorSettings(monitor);
    const { target, trackMode, diffOptions, extractSchema } = settings;
    const tracksJson = trackMode !== 'text';
    const options = resolvePageOptions({
      ...(target.options ?? {}),
      ...(target.engine ? { engine: target.engine } : {}),
      formats: tracksJson ? ['text', 'json'] : ['text'],
      only_main_content: diffOptions.only_main_content ?? true,
      ...(diffOptions.ignore_selectors?.length ? { exclude_tags: diffOptions.ignore_selectors } : {}),
      ...(tracksJson && extractSchema ? { json_options: { schema: extractSchema } } : {}),
      max_age: 0,
      store_in_cache: false,
    });
    const page = await runPage(target.url, options, this.o.pipeline, { readCache: false });
    const statusCode = page.metadata.status_code;
    const now = this.o.clock().toISOString();
    let observation: Observation;
    if (STATUS_GONE.has(statusCode)) observation = { kind: 'removed', statusCode };
    else if (statusCode >= 400) throw new CheckFailure('HTTP_ERROR', `The page answered ${statusCode}`);
    else {
      if (tracksJson && (page.json === null || page.json === undefined)) {
        const why = page.metadata.json_error as { code?: string; message?: string } | undefined;
        throw new CheckFailure(why?.code ?? 'EXTRACTION_FAILED', why?.message ?? 'The structured extraction failed');
      }
      const normalized = normalizeText(page.text ?? '');
      observation = { kind: 'page', lines: normalized.lines, ...(tracksJson ? { extracted: page.json } : {}) };
    }
    const baselineRow = await this.o.store.baseline(monitor.id, check.monitor_revision);
    const baseline: Baseline | undefined = baselineRow && {
      id: baselineRow.id,
      status: baselineRow.status as Baseline['status'],
      lines: baselineRow.content === null ? null : baselineRow.content.split('\n').filter((l) => l !== ''),
      extracted: baselineRow.extracted === null ? null : JSON.parse(baselineRow.extracted),
    };
    const comparison = compare(settings.compared, baseline, observation, target.url);
    const change = comparison.change ? await this.judged(monitor, comparison.change, target.url) : undefined;
    const meaningful = change?.judgment.meaningful ?? false;
    const notify = change !== undefined && (meaningful || !settings.onlyMeaningful);
    const lines = observation.kind === 'page' ? observation.lines : null;
    const content = lines?.join('\n') ?? null;
    const extracted = observation.kind === 'page' ? observation.extracted : undefined;
    const facts = factsOf(monitor);
    const at = { check_id: check.id, url: target.url, at: now };
    return {
      state: 'completed',
      resultStatus: comparison.status,
      sourceError: null,
      now,
      snapshot: {
        monitor_revision: check.monitor_revision,
        url: target.url,
        content_hash: contentHash(lines, extracted),
        content_complete: lines !== null && lines.length < NORMALIZE_LIMITS.maxLines ? 1 : 0,
        status: comparison.status,
        content,
        content_length: content?.length ?? 0,
        extracted: extracted === undefined ? null : JSON.stringify(extracted),
        captured_at: now,
      },
      ...(change
        ? {
            change: {
              url: target.url,
              change_type: change.changeType,
              from_snapshot_id: baseline?.id ?? null,
              diff_text: change.diffText,
              diff_text_truncated: change.diffTextTruncated ? 1 : 0,
              diff_json: change.diffJson ? JSON.stringify(change.diffJson) : null,
              judgment: JSON.stringify(change.judgment),
              notified: notify ? 1 : 0,
              notification_status: notify ? 'queued' : 'skipped',
            },
          }
        : {}),
      events: ({ snapshotId, changeId }) => [
        ...(change && notify && changeId
          ? [
              monitorEvents[monitor.monitor_type === 'price' ? 'monitor.price.changed' : 'monitor.changed'](facts, at, {
                change_id: changeId,
                change_type: change.changeType,
                from_snapshot_id: baseline?.id ?? null,
                to_snapshot_id: snapshotId,
                diff_text: change.diffText,
                diff_text_truncated: change.diffTextTruncated,
                diff_json: change.diffJson,
                judgment: change.judgment,
              }),
            ]
          : []),
        monitorEvents['monitor.check.completed'](facts, at, {
          status: comparison.status,
          snapshot_id: snapshotId,
          change_id: changeId,
          triggered_by: check.triggered_by,
        }),
      ],
    };
  }

  /** Text changes get the model's judgment when a model is configured; the rules' stand otherwise. */
  private async judged(monitor: MonitorRow, change: ChangeDraft, url: string): Promise<ChangeDraft> {
    if (!this.o.llm || change.changeType !== 'text' || change.diffText === null) return change;
    const judgment = await judgeWithModel(this.o.llm, {
      goal: monitor.goal,
      diffText: change.diffText,
      url,
      rules: change.judgment,
    });
    return { ...change, judgment };
  }

  private failure(monitor: MonitorRow, check: CheckRow, url: string, error: unknown): CheckResult {
    const code =
      error instanceof CheckFailure
        ? error.code
        : typeof (error as { code?: unknown })?.code === 'string'
          ? (error as { code: string }).code
          : 'CHECK_FAILED';
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const now = this.o.clock().toISOString();
    const at = { check_id: check.id, url, at: now };
    return {
      state: 'failed',
      resultStatus: 'error',
      sourceError: { message, code },
      now,
      snapshot: {
        monitor_revision: check.monitor_revision,
        url,
        content_hash: '',
        content_complete: 0,
        status: 'error',
        content: null,
        content_length: 0,
        extracted: null,
        captured_at: now,
      },
      events: () => [monitorEvents['monitor.error'](factsOf(monitor), at, { code, message })],
    };
  }
}

function factsOf(monitor: MonitorRow): MonitorFacts {
  return {
    id: monitor.id,
    owner_id: monitor.owner_id,
    task_id: monitor.task_id,
    name: monitor.name,
    monitor_type: monitor.monitor_type,
  };
}
