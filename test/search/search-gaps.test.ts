// POST /v1/search behaviours the other search tests leave out, on both databases: the index engine's `lang` and
// `timeRange` filters through the API, a SearXNG that refuses connections (502, no fallback to the index),
// SEARCH_SCRAPE_CONCURRENCY bounding the result scrapes, search tasks (with scrape_options, and with a failing
// engine), and search.* events delivered to a webhook subscription.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { type SearxngStandin, startSearxngStandin } from '../fixtures/searxng-standin.js';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.js';
import { refusedPort } from '../helpers/ports.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const DAY_MS = 24 * 3600_000;

interface Result {
  title: string;
  url: string;
  description: string;
  source: string;
  status?: string;
  markdown?: string;
  indexed_at?: string;
}

interface LocalPage {
  title: string;
  text: string;
  /** The `<html lang>` attribute (none when absent). */
  lang?: string;
  delayMs?: number;
  /** Held until this settles: lets a test see what is going on while a page is being fetched. */
  gate?: Promise<void>;
}

interface LocalSite {
  url: string;
  /** GET requests per path. */
  hits: Map<string, number>;
  /** The most requests under `/slow/` the site was answering at the same moment. */
  maxInFlight: number;
  close(): Promise<void>;
}

// crawl-site.ts always writes `<html lang="en">` and cannot count requests in flight; this site does both.
async function startLocalSite(pages: Record<string, LocalPage>): Promise<LocalSite> {
  let inFlight = 0;
  const site = { hits: new Map<string, number>(), maxInFlight: 0 };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    site.hits.set(path, (site.hits.get(path) ?? 0) + 1);
    const page = pages[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
      return;
    }
    const counted = path.startsWith('/slow/');
    if (counted) {
      inFlight += 1;
      site.maxInFlight = Math.max(site.maxInFlight, inFlight);
      res.once('close', () => (inFlight -= 1));
    }
    const lang = page.lang ? ` lang="${page.lang}"` : '';
    const html = `<!DOCTYPE html><html${lang}><head><title>${page.title}</title></head><body><main><article><h1>${page.title}</h1><p>${page.text} This paragraph gives the extractor enough real sentences to see an article here, and it goes on for a while so that it is clearly the main content.</p><p>Another paragraph follows it.</p></article></main></body></html>`;
    const answer = () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    void (page.gate ?? Promise.resolve()).then(() => new Promise((r) => setTimeout(r, page.delayMs ?? 0))).then(answer);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return Object.assign(site, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  });
}

/** Real time shifted by `offsetMs`, which the tests move to place pages and cron runs in time. */
function shiftedClock() {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`POST /v1/search, index filters and a SearXNG that refuses connections (${backend})`, () => {
    let t: TestApp;
    let site: LocalSite;
    let closedPort: number;
    const clock = shiftedClock();
    before(async () => {
      site = await startLocalSite({
        '/ancient': { title: 'Ancient heron', text: 'A heron note from long ago.', lang: 'en' },
        '/month-old': { title: 'Month heron', text: 'A heron note from ten days ago.', lang: 'en' },
        '/week-old': { title: 'Week heron', text: 'A heron note from two days ago.', lang: 'en' },
        '/today': { title: 'Today heron', text: 'A heron note from today.', lang: 'en' },
        '/british': { title: 'British heron', text: 'A heron note in British English.', lang: 'en-GB' },
        '/deutsch': { title: 'Reiher', text: 'Der heron Reiher steht am Ufer und wartet.', lang: 'de' },
        '/austrian': { title: 'Reiher in Wien', text: 'Der heron Reiher an der Donau.', lang: 'de-AT' },
        '/no-lang': { title: 'Unlabelled heron', text: 'A heron note with no language.' },
      });
      closedPort = await refusedPort();
      t = await startTestApp({
        backend,
        clock: clock.now,
        env: {
          SEARXNG_URL: `http://127.0.0.1:${closedPort}/`,
          // The pages placed weeks back in time must not be swept as expired jobs once the clock is back at today.
          JOB_RETENTION_MS: String(100 * DAY_MS),
        },
      });
      // Each page is scraped (and indexed) with the clock where its age says: indexed_at is the scrape's time.
      const ages: Array<[string, number]> = [
        ['/ancient', 40],
        ['/month-old', 10],
        ['/week-old', 2],
        ['/today', 0],
        ['/british', 0],
        ['/deutsch', 0],
        ['/austrian', 0],
        ['/no-lang', 0],
      ];
      for (const [path, days] of ages) {
        clock.offsetMs = -days * DAY_MS;
        const res = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}${path}` } });
        assert.equal(res.statusCode, 200, res.body);
      }
      clock.offsetMs = 0;
    });
    after(async () => {
      await t?.close();
      await site?.close();
    });

    const urls = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', '/v1/search', { body: { engine: 'index', query: 'heron', ...body } });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as Result[]).map((r) => r.url.slice(site.url.length)).sort();
    };

    it('timeRange keeps only the pages indexed since then', async () => {
      const all = ['/ancient', '/austrian', '/british', '/deutsch', '/month-old', '/no-lang', '/today', '/week-old'];
      assert.deepEqual(await urls({}), all, 'without timeRange every page is found, old ones included');
      const ancient = (
        (await t.request('POST', '/v1/search', { body: { engine: 'index', query: 'ancient heron' } })).json()
          .data as Result[]
      )[0];
      const age = Date.now() - Date.parse(ancient?.indexed_at ?? '');
      assert.ok(Math.abs(age - 40 * DAY_MS) < 60_000, `the old page was indexed 40 days ago: ${ancient?.indexed_at}`);

      assert.deepEqual(await urls({ timeRange: 'year' }), all);
      assert.deepEqual(
        await urls({ timeRange: 'month' }),
        all.filter((p) => p !== '/ancient'),
        'a month is 31 days',
      );
      const thisWeek = ['/austrian', '/british', '/deutsch', '/no-lang', '/today', '/week-old'];
      assert.deepEqual(await urls({ timeRange: 'week' }), thisWeek);
      assert.deepEqual(
        await urls({ timeRange: 'day' }),
        thisWeek.filter((p) => p !== '/week-old'),
      );
    });

    it('lang keeps the pages of that language and its variants, from <html lang>', async () => {
      assert.deepEqual(await urls({ lang: 'de' }), ['/austrian', '/deutsch'], 'de takes de-AT');
      assert.deepEqual(await urls({ lang: 'de-AT' }), ['/austrian'], 'de-AT does not take de');
      assert.deepEqual(await urls({ lang: 'en-GB' }), ['/british']);
      assert.deepEqual(await urls({ lang: 'en' }), ['/ancient', '/british', '/month-old', '/today', '/week-old']);
      assert.deepEqual(await urls({ lang: 'fr' }), []);
      assert.equal((await urls({ lang: 'all' })).length, 8, 'all is no filter: the page without a language too');
      assert.deepEqual(
        await urls({ lang: 'en', timeRange: 'day' }),
        ['/british', '/today'],
        'both filters apply together',
      );
    });

    it('answers 502 naming SearXNG, quickly, when SearXNG refuses connections, and never falls back to the index', async () => {
      const started = Date.now();
      // "heron" is in the index: a fallback to it would answer 200 with those pages.
      const res = await t.request('POST', '/v1/search', { body: { query: 'heron' } });
      const elapsed = Date.now() - started;
      assert.equal(res.statusCode, 502, res.body);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error, 'Search engine failed');
      assert.equal(body.code, 'SEARCH_ENGINE_UNAVAILABLE');
      assert.match(body.message, /SearXNG refused the connection/);
      assert.ok(!res.body.includes(String(closedPort)), `the message never shows SearXNG's address: ${res.body}`);
      assert.equal(body.data.engine, 'searxng');
      assert.equal(body.data.status, 'failed');
      assert.ok(elapsed < 2000, `answered in ${elapsed} ms`);

      const events = await readEvents(t.app.db.kysely, { subjectId: body.data.job_id as string });
      assert.deepEqual(
        events.map((e) => e.type),
        ['search.created', 'search.started', 'search.failed'],
      );
      const failed = events.at(-1)?.payload as { error_code: string; credits_used: number; engine: string };
      assert.deepEqual(
        [failed.error_code, failed.credits_used, failed.engine],
        ['SEARCH_ENGINE_UNAVAILABLE', 0, 'searxng'],
      );
    });
  });

  describe(`POST /v1/search through SearXNG: scrape concurrency, tasks and webhooks (${backend})`, () => {
    let t: TestApp;
    let site: LocalSite;
    let searx: SearxngStandin;
    const clock = shiftedClock();
    let releaseGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (releaseGate = resolve));
    const slowPaths = ['/slow/1', '/slow/2', '/slow/3', '/slow/4', '/slow/5', '/slow/6'];
    const hit = (path: string) => ({ url: `${site.url}${path}`, title: `Hit ${path}`, content: 'x', engines: ['e'] });

    before(async () => {
      const pages: Record<string, LocalPage> = {
        '/held': { title: 'Held page', text: 'This page answers once the test lets it.', gate },
        '/quick': { title: 'Quick page', text: 'This page answers at once.' },
      };
      for (const path of slowPaths) pages[path] = { title: `Slow ${path}`, text: `Slow page ${path}.`, delayMs: 200 };
      site = await startLocalSite(pages);
      // Queries name the results: local pages (so that they can be scraped), or a failure of the engine.
      searx = await startSearxngStandin((request) => {
        const q = request.params.q;
        if (q === 'slow pages') return { json: { query: q, results: slowPaths.map(hit) } };
        if (q === 'held pages') return { json: { query: q, results: ['/held', '/quick'].map(hit) } };
        if (q === 'broken engine') return { status: 500, text: 'Internal Server Error' };
        return undefined;
      });
      t = await startTestApp({
        backend,
        clock: clock.now,
        env: {
          SEARXNG_URL: searx.url,
          SEARCH_SCRAPE_CONCURRENCY: '2',
          // The test ticks the scheduler itself, after moving the clock to the next minute.
          SCHEDULER_TICK_MS: '60000',
          ALLOW_LOCAL_WEBHOOKS: 'true',
          WEBHOOK_POLL_MS: '10',
          WEBHOOK_RETRY_UNIT_MS: '40',
        },
      });
    });
    after(async () => {
      releaseGate();
      await t?.close();
      await searx?.close();
      await site?.close();
    });

    it('scrapes every result, at most SEARCH_SCRAPE_CONCURRENCY (2) pages at a time', async () => {
      const res = await t.request('POST', '/v1/search', {
        body: { query: 'slow pages', limit: slowPaths.length, scrape_options: { formats: ['markdown'], max_age: 0 } },
      });
      assert.equal(res.statusCode, 200, res.body);
      const data = res.json().data as Result[];
      assert.deepEqual(
        data.map((r) => [r.url.slice(site.url.length), r.status]),
        slowPaths.map((p) => [p, 'completed']),
      );
      for (const [i, path] of slowPaths.entries()) {
        assert.match(data[i]?.markdown ?? '', new RegExp(`Slow page ${path}`));
        assert.equal(site.hits.get(path), 1, `${path} fetched once`);
      }
      assert.equal(site.maxInFlight, 2, 'two pages at once: never more, and not one after the other');
    });

    // Runs the task's next occurrence: the clock goes to the next minute and the scheduler ticks.
    const fireNextRun = async () => {
      clock.offsetMs += 60_000;
      await (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();
    };
    const executions = async (taskId: string) =>
      (await t.request('GET', `/v1/scheduled-tasks/${taskId}/executions`)).json().data as Array<
        Record<string, unknown>
      >;
    const createTask = async (name: string, payload: Record<string, unknown>) => {
      const created = await t.request('POST', '/v1/scheduled-tasks', {
        body: { name, cron_expression: '* * * * *', task_type: 'search', task_payload: payload },
      });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().data.task_id as string;
    };

    it('runs a search task with scrape_options: its execution ends when the scrapes end', async () => {
      const id = await createTask('held', {
        query: 'held pages',
        engine: 'searxng',
        scrape_options: { formats: ['markdown'], max_age: 0 },
      });
      await fireNextRun();
      // The search answered, its first result is being fetched and held: the execution must still be running.
      await until('the held page to be requested', async () => (site.hits.get('/held') ? true : undefined));
      await until('the quick page to be scraped', async () => (site.hits.get('/quick') ? true : undefined));
      await (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();
      const during = await executions(id);
      assert.equal(during.length, 1);
      assert.equal(during[0]?.status, 'running', 'not ended while a result is still being scraped');

      releaseGate();
      const execution = await until('the execution to end', async () => {
        const first = (await executions(id))[0];
        return first && first.status !== 'running' && first.status !== 'pending' ? first : undefined;
      });
      assert.equal(execution.status, 'completed', JSON.stringify(execution));
      assert.equal(execution.items_processed, 2);
      assert.equal(execution.items_succeeded, 2);
      assert.equal(execution.items_failed, 0);
      assert.equal(execution.credits_used, 4, 'two results answered and two scraped');
      const events = await readEvents(t.app.db.kysely, { subjectId: execution.job_uuid as string });
      assert.deepEqual(
        events.map((e) => e.type),
        ['search.created', 'search.started', 'search.completed'],
      );
      // Its scraped pages went into the key's index, as a scrape's do.
      const indexed = await t.request('POST', '/v1/search', { body: { engine: 'index', query: 'test lets it' } });
      assert.deepEqual(
        (indexed.json().data as Result[]).map((r) => r.url),
        [`${site.url}/held`],
      );
      const paused = await t.request('PATCH', `/v1/scheduled-tasks/${id}/pause`, { body: {} });
      assert.equal(paused.statusCode, 200, paused.body);
    });

    it('fails a search task whose engine fails, naming the engine', async () => {
      const id = await createTask('broken', { query: 'broken engine', engine: 'searxng', limit: 3 });
      await fireNextRun();
      const execution = await until('the execution to end', async () => {
        await (t.app.scheduler as NonNullable<typeof t.app.scheduler>).tick();
        const first = (await executions(id))[0];
        return first && first.status !== 'running' && first.status !== 'pending' ? first : undefined;
      });
      assert.equal(execution.status, 'failed', JSON.stringify(execution));
      assert.match(String(execution.error_message), /SearXNG answered HTTP 500/);
      assert.equal(execution.credits_used, 0);
      const events = await readEvents(t.app.db.kysely, { subjectId: execution.job_uuid as string });
      assert.equal(events.at(-1)?.type, 'search.failed');
      await t.request('PATCH', `/v1/scheduled-tasks/${id}/pause`, { body: {} });
    });

    it('delivers search.completed and search.failed to a webhook subscription, signed, with the job id', async () => {
      const receiver: Receiver = await startReceiver();
      try {
        const created = await t.request('POST', '/v1/webhooks', {
          body: {
            name: 'searches',
            webhook_url: `${receiver.url}/hook`,
            event_types: ['search.completed', 'search.failed'],
          },
        });
        assert.equal(created.statusCode, 201, created.body);
        const secret = created.json().data.secret as string;

        const ok = await t.request('POST', '/v1/search', { body: { query: 'red pandas', limit: 3 } });
        assert.equal(ok.statusCode, 200, ok.body);
        const okJob = ok.json().job_id as string;
        const bad = await t.request('POST', '/v1/search', { body: { query: 'broken engine' } });
        assert.equal(bad.statusCode, 502, bad.body);
        const badJob = bad.json().data.job_id as string;

        const jobOf = (r: { body: string }) => (JSON.parse(r.body) as { job_id?: string }).job_id;
        const received = await until('both deliveries', async () => {
          const mine = receiver.requests.filter((r) => [okJob, badJob].includes(jobOf(r) ?? ''));
          return mine.length >= 2 ? mine : undefined;
        });
        // Only the subscribed types: no search.created or search.started for these jobs.
        assert.deepEqual(received.map((r) => r.headers['x-webhook-event']).sort(), [
          'search.completed',
          'search.failed',
        ]);
        for (const req of received) {
          assert.equal(req.path, '/hook');
          const service = `sha256=${createHmac('sha256', secret).update(req.rawBody).digest('hex')}`;
          assert.equal(req.headers['x-service-signature'], service);
          const standard = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
            .update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.`)
            .update(req.rawBody)
            .digest('base64');
          assert.equal(req.headers['webhook-signature'], `v1,${standard}`);
        }
        const completed = JSON.parse(
          received.find((r) => r.headers['x-webhook-event'] === 'search.completed')?.body ?? '{}',
        );
        assert.deepEqual(
          [
            completed.job_id,
            completed.status,
            completed.query,
            completed.engine,
            completed.total,
            completed.credits_used,
          ],
          [okJob, 'completed', 'red pandas', 'searxng', 3, 3],
        );
        const failed = JSON.parse(received.find((r) => r.headers['x-webhook-event'] === 'search.failed')?.body ?? '{}');
        assert.deepEqual(
          [failed.job_id, failed.status, failed.query, failed.engine, failed.error_code, failed.credits_used],
          [badJob, 'failed', 'broken engine', 'searxng', 'SEARCH_ENGINE_UNAVAILABLE', 0],
        );
        assert.match(failed.error_message, /SearXNG answered HTTP 500/);
      } finally {
        await receiver.close();
      }
    });
  });
}
