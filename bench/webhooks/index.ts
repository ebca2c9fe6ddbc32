// Webhook delivery benchmark: sustained deliveries/s to a local receiver, and event-to-delivery delay at half that
// rate.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { recordEvent } from '../../src/events/outbox.js';

const OWNER_KEY = 'bench-key';
const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TOTAL = arg('events', 20_000);
const SECONDS = arg('seconds', 10);

interface Report {
  received: number;
  delays: number[];
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const receiver = fork(fileURLToPath(new URL('./receiver.mjs', import.meta.url)), { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) =>
    receiver.once('message', (m) => resolve((m as { port: number }).port)),
  );
  const report = () =>
    new Promise<Report>((resolve) => {
      receiver.once('message', (m) => resolve(m as Report));
      receiver.send('report');
    });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    API_KEYS: OWNER_KEY,
    LOG_LEVEL: 'warn',
    ALLOW_LOCAL_WEBHOOKS: 'true',
    EXTRACT_THREADS: '0',
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_'))),
  });
  const app = await createApp({ config, logger: pino({ level: 'warn' }) });
  const created = await app.server.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: { authorization: `Bearer ${OWNER_KEY}` },
    payload: { name: 'bench', webhook_url: `http://127.0.0.1:${port}/hook`, event_types: ['crawl.completed'] },
  });
  if (created.statusCode !== 201) throw new Error(created.body);
  const owner = await app.keys.verify(OWNER_KEY);
  if (!owner) throw new Error('no owner');
  const db = app.db.kysely;
  const event = (i: number) => ({
    ownerId: owner,
    type: 'crawl.completed' as const,
    subjectId: null,
    createdAt: new Date().toISOString(),
    payload: {
      job_id: `job-${i}`,
      status: 'completed',
      total: 1,
      completed: 1,
      failed: 0,
      credits_used: 1,
      sent_at_ms: performance.timeOrigin + performance.now(),
    },
  });

  console.log(
    `webhook delivery benchmark: node ${process.version}, ${os.availableParallelism()} cores, SQLite store, ${config.webhookConcurrency} in flight, ${config.webhookSubscriptionConcurrency} per subscription`,
  );
  console.log('(the receiver runs in its own process on the same machine)');

  // 1. Sustained throughput: a backlog of TOTAL events, written in batches, drained as fast as possible.
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < TOTAL; i += 500) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(TOTAL, i + 500); j++) await recordEvent(trx, event(j), app.outbox);
    });
  }
  app.dispatcher?.notify();
  for (;;) {
    const r = await report();
    if (r.received >= TOTAL) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const rate = TOTAL / seconds;
  console.log(
    `sustained: ${TOTAL} deliveries in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s (events written and delivered, signed, each recorded with its attempt)`,
  );
  console.log(
    `service process CPU: ${((cpu.user + cpu.system) / 1000 / TOTAL).toFixed(2)} ms per delivery, ${((cpu.user + cpu.system) / 10_000 / seconds).toFixed(0)}% of one core`,
  );

  // 2. Latency at half that rate: events written one per transaction, as a service writes them.
  receiver.send('reset');
  const target = Math.max(1, Math.floor(rate / 2));
  const count = Math.floor(target * SECONDS);
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / target;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((res) => setTimeout(res, wait));
    await recordEvent(db, event(i), app.outbox);
  }
  for (;;) {
    const r = await report();
    if (r.received >= count) {
      const sorted = r.delays.sort((a, b) => a - b);
      console.log(
        `latency at ${target}/s for ${SECONDS} s (${count} events): event-to-delivery p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p90 ${quantile(sorted, 0.9).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`,
      );
      break;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  await app.close();
  receiver.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
