// Monitors benchmark: 1,000 monitors due in the same minute on one process. Are they all checked within the minute,
// what CPU does a check cost, and how long after the scheduled time is each check's event recorded?
//
//   node --import tsx bench/monitors/due-minute.ts [--monitors 1000] [--changed 0.1] [--db sqlite|postgres|both]
//   (npm run bench:monitors -- --db both)
//
// The service runs in this process (createApp, the default configuration: MONITOR_CHECK_CONCURRENCY 16, the extraction
// thread pool; MONITOR_*, EXTRACT_* and SCHEDULER_* variables of the environment are passed on) on SQLite in a
// temporary DATA_DIR, or on PostgreSQL (DATABASE_URL_TEST, default postgres://postgres@127.0.0.1:5432/test) in a
// schema of its own that is dropped afterwards. A child process serves `--monitors` small distinct article pages
// (site-server.ts), each with the time it was made in its text; `--monitors` monitors, one per page, are created
// through the HTTP API (inject) with cron `* * * * *`.
//
// The app's clock is this benchmark's: real time plus an offset, so it runs at real speed and a clock interval is a
// real one. Each round sets it 1.5 s before the minute the monitors are due at and leaves the rest to the app: its
// scheduler wakes for the minute by itself, fires the due set, and the check runner fetches, compares and commits.
// Round 1 takes the first snapshots (status new: no change, no monitor.changed); before round 2 `--changed` of the
// pages (10%) gain a paragraph, and round 2 must record exactly one change and one monitor.changed event for each of
// them and none for the pages whose only difference is the time they were made. A round still running 59 s after its
// minute stops the clock there until it has ended, so that the next minute is not fired in the middle of it.
//
// Figures per round, in real time from the scheduled minute: when the last check's monitor.check.completed event was
// recorded (the due set's wall time), checks/s over it, this process's CPU (all threads: scheduler, runner, extraction
// workers, SQLite; not PostgreSQL's server) per check over the same span, and the lag from the scheduled minute to
// each check's event, read from the events table (readEvents) as soon as the app's outbox says events were recorded
// (and every 20 ms besides). Exits 1 when a round recorded anything but what it should have.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { readEvents, type StoredEvent } from '../../src/events/outbox.js';

const KEY = 'bench-monitors-key';
const POSTGRES_URL = process.env.DATABASE_URL_TEST ?? 'postgres://postgres@127.0.0.1:5432/test';
/** How long before the minute each round sets the clock. */
const LEAD_MS = 1500;
/** A round that has not ended this long after its minute is reported as stuck. */
const ROUND_TIMEOUT_MS = 5 * 60_000;

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    changed: { type: 'string', default: '0.1' },
    db: { type: 'string', default: 'sqlite' },
  },
});
const MONITORS = Number(args.monitors);
const CHANGED_SHARE = Number(args.changed);
if (!Number.isInteger(MONITORS) || MONITORS < 1) throw new Error('--monitors takes a positive integer');
if (!(CHANGED_SHARE > 0 && CHANGED_SHARE <= 1)) throw new Error('--changed takes a share in (0, 1]');
if (!['sqlite', 'postgres', 'both'].includes(args.db as string)) throw new Error('--db is sqlite, postgres or both');
const BACKENDS = (args.db === 'both' ? ['sqlite', 'postgres'] : [args.db]) as Array<'sqlite' | 'postgres'>;

const log = (message: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Real time in ms since the epoch, sub-millisecond. */
const realNow = () => performance.timeOrigin + performance.now();

/** The app's clock: real time plus an offset the benchmark moves; it can also be stopped. */
class BenchClock {
  private offset = 0;
  private frozen: number | undefined;
  readonly now = (): Date => new Date(this.frozen ?? realNow() + this.offset);
  /** From now on the clock reads `ms`, and goes on at real speed. */
  setTo(ms: number): void {
    this.frozen = undefined;
    this.offset = ms - realNow();
  }
  /** The clock stops at `ms` until the next setTo(). */
  freezeAt(ms: number): void {
    this.frozen = ms;
  }
  /** The real time at which the running clock reads `ms`. */
  realAt(ms: number): number {
    return ms - this.offset;
  }
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** The page server: a child process, told which pages change. */
class Site {
  private constructor(
    private readonly child: ChildProcess,
    readonly base: string,
  ) {}

  static async start(): Promise<Site> {
    const child = fork(fileURLToPath(new URL('./site-server.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`the site server exited (${code})`)));
    });
    return new Site(child, `http://127.0.0.1:${port}`);
  }

  tell(message: { count?: number; change?: number[] }): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('message', () => resolve());
      this.child.send(message);
    });
  }

  stop(): void {
    this.child.disconnect();
  }
}

/**
 * Every event the app records, with the real time it was first read back. On PostgreSQL events commit out of `seq`
 * order (a transaction that took a smaller seq can commit after one with a larger), so reads start after a floor below
 * which every seq was read, and a seq still missing after GAP_MS is taken for one that never committed.
 */
class EventWatch {
  static readonly GAP_MS = 5000;
  readonly seen: Array<StoredEvent & { seenAt: number }> = [];
  private floor = 0;
  /** Seqs above the floor already read. */
  private readonly above = new Set<number>();
  /** Seqs above the floor not read yet, with when they were first missed. */
  private readonly missing = new Map<number, number>();
  private draining: Promise<void> | undefined;
  private again = false;
  private readonly stopListening: () => void;
  private readonly poll: NodeJS.Timeout;
  /** Called after every read that found events. */
  onSeen: () => void = () => undefined;

  constructor(private readonly app: App) {
    this.stopListening = app.outbox.listen(() => this.drain());
    // The signal comes before the recording transaction commits: on PostgreSQL a read may find nothing yet, and the
    // last events of a round would then wait for a signal that does not come.
    this.poll = setInterval(() => this.drain(), 20);
  }

  private drain(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        for (;;) {
          const batch = await readEvents(this.app.db.kysely, { afterSeq: this.floor, limit: 5000 });
          const at = realNow();
          const fresh = batch.filter((e) => !this.above.has(e.seq));
          for (const event of fresh) {
            this.above.add(event.seq);
            this.seen.push({ ...event, seenAt: at });
          }
          this.raiseFloor(batch.at(-1)?.seq ?? this.floor, at);
          if (fresh.length > 0) this.onSeen();
          if (fresh.length === 0 || batch.length < 5000) break;
        }
      } while (this.again);
    })()
      .catch((error: unknown) => {
        log(`reading events failed: ${String(error)}`);
      })
      .finally(() => {
        this.draining = undefined;
      });
  }

  private raiseFloor(top: number, at: number): void {
    while (this.floor < top) {
      const next = this.floor + 1;
      if (!this.above.delete(next)) {
        const since = this.missing.get(next) ?? at;
        this.missing.set(next, since);
        if (at - since < EventWatch.GAP_MS) return;
        this.missing.delete(next);
      }
      this.missing.delete(next);
      this.floor = next;
    }
  }

  async stop(): Promise<void> {
    this.stopListening();
    clearInterval(this.poll);
    await this.draining;
  }
}

interface RoundResult {
  round: number;
  scheduledFor: string;
  checks: number;
  failed: number;
  /** From the scheduled minute to the last monitor.check.completed event read back, real ms. */
  wallMs: number;
  checksPerSecond: number;
  cpuMsPerCheck: number;
  /** Scheduled minute → the check's monitor.check.completed event read back, real ms. */
  lag: { first: number; p50: number; p90: number; p99: number; max: number };
  /** The same from the event's own completed_at (the app's clock when the check's result was made). */
  lagCompletedAt: { p50: number; p99: number; max: number };
  /** Scheduled minute → the last execution fired (its started_at), and the last check queued (its created_at), ms. */
  firedMs: number;
  queuedMs: number;
  /** Scheduled minute → every execution of the minute ended by the scheduler, real ms. */
  executionsEndedMs: number;
  statuses: Record<string, number>;
  changes: number;
  changedEvents: number;
  errorEvents: number;
  pagesChanged: number;
  /** Changes recorded for pages that did not change, and changed pages without a change. */
  wrongChanges: number;
  missedChanges: number;
  /** The round overran its minute, and the clock was stopped before the next one (completed_at lags are capped). */
  clockStopped: boolean;
  /** Statuses, changes and events are what the round should have recorded. */
  asExpected: boolean;
}

async function runBackend(backend: 'sqlite' | 'postgres', site: Site) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-monitors-'));
  const schema = backend === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const passOn = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k, v]) => v !== undefined && /^(MONITOR_|EXTRACT_|SCHEDULER_|WEBHOOK_)/.test(k),
    ),
  ) as Record<string, string>;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: backend === 'postgres' ? POSTGRES_URL : '',
    API_KEYS: KEY,
    LOG_LEVEL: 'warn',
    ALLOW_LOCAL_TARGETS: 'true',
    ...passOn,
  });
  // The service's warnings and errors, counted (the first few shown): a clean run has none.
  const problems: string[] = [];
  const logger = pino(
    { level: 'warn' },
    {
      write(line: string) {
        problems.push(line);
        if (problems.length <= 3) process.stderr.write(line);
      },
    },
  );
  const clock = new BenchClock();
  // The first minute the monitors are due at: a whole minute ahead of the real clock, so the creation fits before it.
  const firstMinute = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
  clock.setTo(firstMinute - 50_000);
  await site.tell({ count: MONITORS });
  const app = await createApp({
    config,
    logger,
    clock: clock.now,
    ...(schema ? { databaseSchema: schema } : {}),
  });
  const watch = new EventWatch(app);
  try {
    // The monitors, through the API.
    const monitorOfPage: string[] = [];
    const createStart = realNow();
    for (let n = 0; n < MONITORS; n++) {
      const res = await app.server.inject({
        method: 'POST',
        url: '/v1/monitors',
        headers: { authorization: `Bearer ${KEY}` },
        payload: {
          name: `district ${n}`,
          cron_expression: '* * * * *',
          targets: [{ url: `${site.base}/article/${n}` }],
        },
      });
      if (res.statusCode !== 201) throw new Error(`creating monitor ${n}: HTTP ${res.statusCode} ${res.body}`);
      monitorOfPage.push((res.json() as { data: { monitor_id: string } }).data.monitor_id);
    }
    const createMs = realNow() - createStart;
    log(`${backend}: ${MONITORS} monitors created in ${(createMs / 1000).toFixed(1)} s`);
    const pageOfMonitor = new Map(monitorOfPage.map((id, n) => [id, n]));

    const rounds: RoundResult[] = [];
    let pagesChanged = new Set<number>();
    for (let round = 1; round <= 2; round++) {
      if (round === 2) {
        // Every page's clock moved anyway; these also gain a paragraph.
        const share = Math.max(1, Math.round(MONITORS * CHANGED_SHARE));
        const step = MONITORS / share;
        pagesChanged = new Set(Array.from({ length: share }, (_, i) => Math.floor(i * step)));
        await site.tell({ change: [...pagesChanged] });
      }
      rounds.push(await runRound(app, clock, watch, round, pageOfMonitor, pagesChanged));
    }
    return {
      backend,
      createMs,
      rounds,
      warnings: problems.length,
      firstWarning: problems[0]?.slice(0, 300),
      concurrency: config.monitorCheckConcurrency,
      extractThreads: config.extractThreads,
    };
  } finally {
    await watch.stop();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    }
  }
}

async function runRound(
  app: App,
  clock: BenchClock,
  watch: EventWatch,
  round: number,
  pageOfMonitor: Map<string, number>,
  pagesChanged: Set<number>,
): Promise<RoundResult> {
  const db = app.db.kysely;
  // Every monitor's task is due at the same minute.
  const due = await db
    .selectFrom('scheduled_tasks')
    .select(['next_execution_at'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('task_type', '=', 'monitor')
    .groupBy('next_execution_at')
    .execute();
  if (due.length !== 1 || Number(due[0]?.n) !== MONITORS)
    throw new Error(`round ${round}: the monitors are not all due at one time: ${JSON.stringify(due)}`);
  const minuteIso = due[0]?.next_execution_at as string;
  const minute = Date.parse(minuteIso);
  if (clock.now().getTime() >= minute)
    throw new Error(`round ${round}: the clock is already past ${minuteIso} (the previous round overran its minute)`);

  const seenBefore = watch.seen.length;
  const ofRound = () => watch.seen.slice(seenBefore);
  const cpuBefore = process.cpuUsage();
  let cpuAtEnd: NodeJS.CpuUsage | undefined;
  let endedAt = 0;
  const ended = new Promise<void>((resolve) => {
    watch.onSeen = () => {
      const done = ofRound().filter((e) => e.type === 'monitor.check.completed' || e.type === 'monitor.error');
      if (done.length >= MONITORS && cpuAtEnd === undefined) {
        cpuAtEnd = process.cpuUsage(cpuBefore);
        endedAt = (done.at(-1) as (typeof done)[number]).seenAt;
        resolve();
      }
    };
  });
  clock.setTo(minute - LEAD_MS);
  const fireAt = clock.realAt(minute);
  // The scheduler looks again now, finds the minute 1.5 s away, and sleeps until it.
  app.scheduler?.notify();
  log(`round ${round}: clock set ${LEAD_MS} ms before ${minuteIso}`);
  // A round that overruns its minute would see the scheduler fire the next one in the middle of it (the checks ended
  // by then checked again): the clock stops just before the next minute until the round's executions have ended. Lags
  // are measured in real time, so they stay true; only the app's own timestamps (completed_at) stop.
  let missed = false;
  const stopClock = setTimeout(
    () => {
      missed = true;
      clock.freezeAt(Math.min(clock.now().getTime(), minute + 60_000 - 1));
      log(`round ${round}: the next minute is near and the round has not ended: the clock stops until it has`);
    },
    Math.max(0, fireAt + 59_000 - realNow()),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ended,
    new Promise((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`round ${round}: not every check ended within ${ROUND_TIMEOUT_MS / 1000} s of the minute`)),
        LEAD_MS + ROUND_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  watch.onSeen = () => undefined;
  const wallMs = endedAt - fireAt;
  const cpu = cpuAtEnd as NodeJS.CpuUsage;
  log(`round ${round}: ${MONITORS} checks ended ${(wallMs / 1000).toFixed(2)} s after the minute`);

  // The scheduler ends each execution once its check ended.
  const executions = () =>
    db
      .selectFrom('task_executions')
      .select(['status'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('job_kind', '=', 'monitor')
      .where('scheduled_for', '=', minuteIso)
      .groupBy('status')
      .execute();
  let executionsEndedMs: number;
  for (;;) {
    const byStatus = await executions();
    const ended = byStatus
      .filter((r) => r.status === 'completed' || r.status === 'failed')
      .reduce((sum, r) => sum + Number(r.n), 0);
    if (ended >= MONITORS) {
      executionsEndedMs = realNow() - fireAt;
      break;
    }
    if (realNow() - fireAt > ROUND_TIMEOUT_MS)
      throw new Error(`round ${round}: executions not ended: ${JSON.stringify(byStatus)}`);
    await sleep(20);
  }

  clearTimeout(stopClock);
  if (missed) clock.setTo(clock.now().getTime());

  // What the round recorded: checks, their statuses, changes, events.
  const checks = await db
    .selectFrom('monitor_checks')
    .innerJoin('task_executions', 'task_executions.id', 'monitor_checks.execution_id')
    .select([
      'monitor_checks.id',
      'monitor_checks.monitor_id',
      'monitor_checks.state',
      'monitor_checks.result_status',
      'monitor_checks.created_at',
      'task_executions.started_at',
    ])
    .where('task_executions.scheduled_for', '=', minuteIso)
    .where('task_executions.job_kind', '=', 'monitor')
    .execute();
  const statuses: Record<string, number> = {};
  for (const c of checks) {
    const key = c.state === 'completed' ? (c.result_status ?? '?') : c.state;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const checkIds = new Set(checks.map((c) => c.id));
  const changes = (await db.selectFrom('monitor_changes').select(['check_id', 'monitor_id']).execute()).filter((c) =>
    c.check_id === null ? false : checkIds.has(c.check_id),
  );
  const events = ofRound();
  const completed = events.filter((e) => e.type === 'monitor.check.completed');
  const changedEvents = events.filter((e) => e.type === 'monitor.changed');
  const errorEvents = events.filter((e) => e.type === 'monitor.error');
  const changedPagesSeen = new Set(
    [...changes.map((c) => c.monitor_id), ...changedEvents.map((e) => e.subjectId as string)].map((id) =>
      pageOfMonitor.get(id),
    ),
  );
  const wrongChanges = [...changedPagesSeen].filter((n) => n === undefined || !pagesChanged.has(n)).length;
  const missedChanges =
    [...pagesChanged].filter((n) => !changes.some((c) => pageOfMonitor.get(c.monitor_id) === n)).length +
    [...pagesChanged].filter((n) => !changedEvents.some((e) => pageOfMonitor.get(e.subjectId as string) === n)).length;

  const lags = completed.map((e) => e.seenAt - fireAt).sort((a, b) => a - b);
  const lagsAt = completed
    .map((e) => Date.parse((e.payload as { completed_at: string }).completed_at) - minute)
    .sort((a, b) => a - b);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const result: RoundResult = {
    round,
    scheduledFor: minuteIso,
    checks: checks.filter((c) => c.state === 'completed').length,
    failed: checks.filter((c) => c.state === 'failed').length,
    wallMs: Math.round(wallMs),
    checksPerSecond: Number((MONITORS / (wallMs / 1000)).toFixed(1)),
    cpuMsPerCheck: Number((cpuMs / MONITORS).toFixed(2)),
    lag: {
      first: Math.round(lags[0] ?? NaN),
      p50: Math.round(quantile(lags, 0.5)),
      p90: Math.round(quantile(lags, 0.9)),
      p99: Math.round(quantile(lags, 0.99)),
      max: Math.round(lags.at(-1) ?? NaN),
    },
    lagCompletedAt: {
      p50: Math.round(quantile(lagsAt, 0.5)),
      p99: Math.round(quantile(lagsAt, 0.99)),
      max: Math.round(lagsAt.at(-1) ?? NaN),
    },
    firedMs: Math.max(...checks.map((c) => Date.parse(c.started_at as string) - minute)),
    queuedMs: Math.max(...checks.map((c) => Date.parse(c.created_at) - minute)),
    executionsEndedMs: Math.round(executionsEndedMs),
    statuses,
    changes: changes.length,
    changedEvents: changedEvents.length,
    errorEvents: errorEvents.length,
    pagesChanged: pagesChanged.size,
    wrongChanges,
    missedChanges,
    clockStopped: missed,
    asExpected: false,
  };
  const recorded =
    round === 1
      ? result.changes === 0 && result.changedEvents === 0 && statuses.new === MONITORS
      : result.changes === pagesChanged.size &&
        result.changedEvents === pagesChanged.size &&
        statuses.changed === pagesChanged.size &&
        statuses.same === MONITORS - pagesChanged.size;
  result.asExpected =
    recorded && wrongChanges === 0 && missedChanges === 0 && result.failed === 0 && result.errorEvents === 0;
  if (!result.asExpected) log(`round ${round}: UNEXPECTED outcome: ${JSON.stringify(result)}`);
  return result;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const site = await Site.start();
  const results = [];
  try {
    for (const backend of BACKENDS) results.push(await runBackend(backend, site));
  } finally {
    site.stop();
  }
  for (const r of results) {
    const [one, two] = r.rounds as [RoundResult, RoundResult];
    console.log(
      `\nmonitors due in one minute: node ${process.version}, ${os.availableParallelism()} cores, ${r.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${MONITORS} monitors (created through the API in ${s(r.createMs)}), MONITOR_CHECK_CONCURRENCY ${r.concurrency}, EXTRACT_THREADS ${r.extractThreads}\n`,
    );
    console.log(`| | round 1: first snapshots | round 2: ${two.pagesChanged} pages changed |`);
    console.log('| --- | --- | --- |');
    const row = (name: string, f: (x: RoundResult) => string) => console.log(`| ${name} | ${f(one)} | ${f(two)} |`);
    row('checks completed / failed', (x) => `${x.checks} / ${x.failed}`);
    row('minute → last check event (wall)', (x) => `${s(x.wallMs)}${x.wallMs < 60_000 ? '' : ' (MINUTE MISSED)'}`);
    row('minute → last execution fired / last check queued', (x) => `${x.firedMs} / ${x.queuedMs} ms`);
    row('checks/s', (x) => String(x.checksPerSecond));
    row('CPU ms per check (process, all threads)', (x) => String(x.cpuMsPerCheck));
    row(
      'lag minute → monitor.check.completed recorded, first / p50 / p90 / p99 / max',
      (x) => `${x.lag.first} / ${x.lag.p50} / ${x.lag.p90} / ${x.lag.p99} / ${x.lag.max} ms`,
    );
    row(
      'same, from the event’s completed_at, p50 / p99 / max',
      (x) =>
        `${x.lagCompletedAt.p50} / ${x.lagCompletedAt.p99} / ${x.lagCompletedAt.max} ms${x.clockStopped ? ' (the clock stopped 1 s before the next minute)' : ''}`,
    );
    row('minute → every execution ended', (x) => s(x.executionsEndedMs));
    row('snapshot statuses', (x) =>
      Object.entries(x.statuses)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    );
    row(
      'changes / monitor.changed events (pages changed)',
      (x) => `${x.changes} / ${x.changedEvents} (${x.pagesChanged})`,
    );
    row('changes on unchanged pages / changed pages missed', (x) => `${x.wrongChanges} / ${x.missedChanges}`);
    row('monitor.error events', (x) => String(x.errorEvents));
    row('as expected', (x) => (x.asExpected ? 'yes' : 'NO'));
    console.log(
      `\nservice warnings/errors logged: ${r.warnings}${r.firstWarning ? ` (first: ${r.firstWarning.trim()})` : ''}`,
    );
  }
  console.log(
    JSON.stringify({
      bench: 'monitors-due-minute',
      monitors: MONITORS,
      cpus: os.availableParallelism(),
      node: process.version,
      results,
    }),
  );
  if (!results.every((r) => r.rounds.every((x) => x.asExpected))) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
