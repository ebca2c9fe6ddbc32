// Batch scrape behaviours no other test reaches: its scrape.* events delivered to a webhook subscription (not only
// written to the outbox), and a SIGKILL in the middle of a batch on PostgreSQL (batch-resume.test.ts is SQLite's).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type CrawlSite, type FixturePage, startCrawlSite } from '../fixtures/crawl-site.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { POSTGRES_URL, postgresDatabase } from '../helpers/databases.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { batchThroughSigkill, createBatch, waitForBatch } from './helpers.js';

describe('batch scrape events delivered to a webhook subscription', () => {
  let t: TestApp;
  let site: CrawlSite;
  let receiver: Receiver;
  before(async () => {
    const pages: Record<string, FixturePage> = { '/a': {}, '/b': {}, '/missing-page': { status: 404 } };
    for (let i = 0; i < 10; i++) pages[`/slow${i}`] = { delayMs: 300 };
    site = await startCrawlSite(pages);
    receiver = await startReceiver();
    // One page at a time, so that a cancelled batch still has queued pages when it is cancelled.
    t = await startTestApp({
      env: { ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_POLL_MS: '10', CRAWL_CONCURRENCY: '1', CRAWL_JOB_CONCURRENCY: '1' },
    });
    const hook = await t.request('POST', '/v1/webhooks', {
      body: { name: 'batches', webhook_url: receiver.url, event_types: ['scrape.completed', 'scrape.cancelled'] },
    });
    assert.equal(hook.statusCode, 201, hook.body);
  });
  after(async () => {
    await t.close();
    await receiver.close();
    await site.close();
  });

  const deliveriesOf = (jobId: string) =>
    receiver.requests
      .map((r) => ({ event: r.headers['x-webhook-event'], payload: JSON.parse(r.body) as Record<string, unknown> }))
      .filter((d) => d.payload.job_id === jobId);

  it('delivers scrape.cancelled for a cancelled batch, and no scrape.completed for it after', async () => {
    const urls = Array.from({ length: 10 }, (_, i) => `${site.url}/slow${i}`);
    const created = await createBatch(t, { urls });
    // Cancelled while running: its first page taken, the others queued.
    await until('a first page to be fetched', async () =>
      [...site.hits.keys()].some((p) => p.startsWith('/slow')) ? true : undefined,
    );
    const cancel = await t.request('DELETE', `/v1/batch/scrape/${created.job_id}`);
    assert.equal(cancel.statusCode, 200, cancel.body);

    await until('scrape.cancelled delivered', async () => (deliveriesOf(created.job_id).length > 0 ? true : undefined));
    // The page in flight at the cancel ends meanwhile (300 ms): it must not end the batch a second time.
    await new Promise((r) => setTimeout(r, 800));
    const deliveries = deliveriesOf(created.job_id);
    assert.deepEqual(
      deliveries.map((d) => d.event),
      ['scrape.cancelled'],
    );
    const payload = deliveries[0]!.payload;
    assert.equal(payload.status, 'cancelled');
    assert.equal(payload.batch, true);
    assert.equal(payload.url, urls[0]);
    assert.equal(payload.total, 10);
    assert.equal(typeof payload.cancelled_at, 'string');
    const status = (await t.request('GET', `/v1/batch/scrape/${created.job_id}/status`)).json().data;
    assert.equal(payload.completed, status.completed, 'the counters of the cancel');
    assert.ok((status.completed as number) < 10);
  });

  it("delivers scrape.completed for a finished batch, with the batch's counters", async () => {
    const urls = [`${site.url}/a`, `${site.url}/b`, `${site.url}/missing-page`, 'http://127.0.0.1:1/refused'];
    const created = await createBatch(t, { urls });
    const status = await waitForBatch(t, created.job_id);
    assert.equal(status.status, 'completed');
    await until('scrape.completed delivered', async () => (deliveriesOf(created.job_id).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    const deliveries = deliveriesOf(created.job_id);
    assert.deepEqual(
      deliveries.map((d) => d.event),
      ['scrape.completed'],
    );
    const payload = deliveries[0]!.payload;
    assert.deepEqual(
      { ...payload, created_at: typeof payload.created_at, completed_at: typeof payload.completed_at },
      {
        job_id: created.job_id,
        status: 'completed',
        url: urls[0],
        // The 404 is a saved page; the refused connection is the one failure.
        total: 4,
        completed: 3,
        failed: 1,
        credits_used: 3,
        created_at: 'string',
        completed_at: 'string',
        batch: true,
      },
    );
  });
});

describe('a batch through SIGKILL on PostgreSQL', () => {
  const COUNT = 80;
  let site: CrawlSite;
  const database = postgresDatabase();
  before(async () => {
    const pages: Record<string, FixturePage> = {};
    for (let i = 0; i < COUNT; i++) pages[`/u${i}`] = { delayMs: 60 };
    site = await startCrawlSite(pages);
  });
  after(async () => {
    await site.close();
    await database.drop();
  });

  it('resumes the batch after a restart with every URL saved exactly once and exact counts', async () => {
    const urls = Array.from({ length: COUNT }, (_, i) => `${site.url}/u${i}`);
    const run = await batchThroughSigkill(
      {
        DATABASE_URL: POSTGRES_URL,
        DATABASE_SCHEMA: database.target.schema as string,
        DATA_DIR: database.target.dataDir,
        API_KEYS: 'batch-pg-resume-key',
        ALLOW_LOCAL_TARGETS: 'true',
        CRAWL_CONCURRENCY: '4',
        CRAWL_JOB_CONCURRENCY: '4',
        // The pages in flight at the kill wait out their lease: shorter than the default 10 s keeps the test short.
        CRAWL_LEASE_MS: '3000',
      },
      urls,
      15,
    );
    assert.ok(run.completedAtKill < COUNT, `killed after the batch had ended (${run.completedAtKill} pages saved)`);
    assert.deepEqual(
      {
        status: run.status.status,
        total: run.status.total,
        completed: run.status.completed,
        failed: run.status.failed,
        credits_used: run.status.credits_used,
      },
      { status: 'completed', total: COUNT, completed: COUNT, failed: 0, credits_used: COUNT },
    );
    assert.equal(run.seen.length, COUNT, 'each URL is in the results once');
    assert.deepEqual([...new Set(run.seen)].sort(), [...urls].sort());
    assert.ok(run.afterRestartMs < 20_000, `the batch ended ${run.afterRestartMs} ms after the restart`);

    // The store itself, not only the API's paging: one result row per URL, and every frontier page done once.
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      const schema = database.target.schema as string;
      const rows = await client.query<{ url: string; n: string }>(
        `SELECT url, count(*) AS n FROM "${schema}".crawl_results WHERE job_id = $1 GROUP BY url`,
        [run.jobId],
      );
      assert.equal(rows.rows.length, COUNT);
      assert.deepEqual(
        rows.rows.filter((r) => Number(r.n) !== 1),
        [],
      );
      const states = await client.query<{ state: string; n: string }>(
        `SELECT state, count(*) AS n FROM "${schema}".crawl_pages WHERE job_id = $1 GROUP BY state`,
        [run.jobId],
      );
      assert.deepEqual(
        states.rows.map((r) => [r.state, Number(r.n)]),
        [['done', COUNT]],
      );
    } finally {
      await client.end();
    }
    // Fetched twice: only pages the killed worker had in flight (at most its 4 slots).
    const refetched = [...site.hits].filter(([, hits]) => hits > 1);
    assert.ok(refetched.length <= 4, `fetched more than once: ${JSON.stringify(refetched)}`);
  });
});
