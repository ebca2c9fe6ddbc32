// Scheduler benchmark: N active tasks due at the same minute; how late their executions start, and the idle CPU per
// tick.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

const args = process.argv.slice(2);
const TASKS = Number(args[args.indexOf('--tasks') + 1] ?? 10_000) || 10_000;
const KEY = 'bench-key';

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scheduler-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    API_KEYS: KEY,
    LOG_LEVEL: 'warn',
    EXTRACT_THREADS: '0',
    SCHEDULER_TICK_MS: process.env.SCHEDULER_TICK_MS ?? '1000',
    WEBHOOK_POLL_MS: process.env.WEBHOOK_POLL_MS ?? '250',
  });
  const app = await createApp({ config, logger: pino({ level: 'warn' }) });
  const owner = await app.keys.verify(KEY);
  if (!owner) throw new Error('no owner');
  const db = app.db.kysely;

  // Due at the next whole minute, at least 5 s away so that inserting the tasks is done before.
  const nowMs = Date.now();
  let minute = Math.ceil(nowMs / 60_000) * 60_000;
  if (minute - nowMs < 5_000) minute += 60_000;
  const due = new Date(minute).toISOString();
  const created = new Date().toISOString();
  // 'search' tasks fail at once without I/O, so the figures are the scheduler's own.
  for (let i = 0; i < TASKS; i += 500) {
    await db
      .insertInto('scheduled_tasks')
      .values(
        Array.from({ length: Math.min(500, TASKS - i) }, (_, j) => ({
          id: randomUUID(),
          owner_id: owner,
          name: `bench ${i + j}`,
          description: null,
          cron_expression: '* * * * *',
          timezone: i % 1000 === 0 ? 'Europe/Berlin' : 'UTC',
          task_type: 'search',
          task_payload: JSON.stringify({ query: 'bench' }),
          concurrency_mode: 'skip',
          max_executions_per_day: null,
          webhook_ids: null,
          webhook_url: null,
          implicit_webhook_id: null,
          tags: null,
          metadata: null,
          min_credits_required: 10,
          is_active: 1,
          is_paused: 0,
          pause_reason: null,
          next_execution_at: due,
          total_executions: 0,
          successful_executions: 0,
          failed_executions: 0,
          consecutive_failures: 0,
          last_execution_at: null,
          created_at: created,
          updated_at: created,
        })),
      )
      .execute();
  }
  console.log(
    `scheduler benchmark: ${TASKS} active tasks due at ${due}; node ${process.version}, ${os.availableParallelism()} cores, SQLite, tick ${config.schedulerTickMs} ms, webhook poll ${config.webhookPollMs} ms`,
  );

  // Idle: the scheduler ticking with every task waiting for the minute.
  await new Promise((r) => setTimeout(r, Math.max(0, minute - Date.now() - 4_000)));
  const idleStart = process.cpuUsage();
  const idleWall = performance.now();
  await new Promise((r) => setTimeout(r, 3_000));
  const idle = process.cpuUsage(idleStart);
  const idleSeconds = (performance.now() - idleWall) / 1000;
  const ticks = idleSeconds / (config.schedulerTickMs / 1000);
  console.log(
    `idle with ${TASKS} tasks: ${((idle.user + idle.system) / 10_000 / idleSeconds).toFixed(2)}% of one core, ${((idle.user + idle.system) / 1000 / ticks).toFixed(2)} ms CPU per tick`,
  );

  // The minute: wait until every task has an execution.
  const busyStart = process.cpuUsage();
  for (;;) {
    const row = await db
      .selectFrom('task_executions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= TASKS) break;
    if (Date.now() > minute + 120_000) throw new Error(`only ${row.n} executions after 2 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const busy = process.cpuUsage(busyStart);
  const rows = await db.selectFrom('task_executions').select(['scheduled_for', 'started_at']).execute();
  const lags = rows.map((r) => Date.parse(r.started_at as string) - Date.parse(r.scheduled_for)).sort((a, b) => a - b);
  console.log(
    `${rows.length} executions of the minute: start lag first ${lags[0]} ms, p50 ${quantile(lags, 0.5)} ms, p99 ${quantile(lags, 0.99)} ms, last ${lags.at(-1)} ms; CPU ${((busy.user + busy.system) / 1000).toFixed(0)} ms for the minute's work (${((busy.user + busy.system) / 1000 / TASKS).toFixed(3)} ms per execution)`,
  );
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
