// POST /v1/search with the embedded index engine, end to end on both databases: pages saved by scrapes, crawls and
// batch scrapes are found by their key only, results can be scraped, bad input is a 400, the job and its events are
// recorded, and a search task runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../src/events/outbox.js';
import { type CrawlSite, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

interface Result {
  title: string;
  url: string;
  description: string;
  source: string;
  status?: string;
  markdown?: string;
  error_code?: string;
  metadata?: { status_code: number };
  indexed_at?: string;
  indexed_by_job?: string;
}

const article = (words: string) =>
  `<p>${words} This paragraph gives the extractor enough real sentences to see an article here, and it goes on for a while so that it is clearly the main content.</p><p>Another paragraph follows it.</p>`;

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`POST /v1/search, index engine (${backend})`, () => {
    let t: TestApp;
    let site: CrawlSite;
    // The scheduler's clock, moved by the task test; the rest of the time it stands a little ahead of real time.
    let now = new Date(Date.now() + 1000);
    before(async () => {
      site = await startCrawlSite({
        '/kettle': { title: 'Copper kettle', body: article('The copper kettle boils water on induction stoves.') },
        '/tea': {
          title: 'Green tea',
          body: article('Brew green tea below boiling; a kettle with a thermometer helps.'),
        },
        '/': { links: ['/docs/a', '/docs/b'], body: article('Zanzibar documentation home.') },
        '/docs/a': { title: 'Install guide', body: article('Install the zanzibar package with npm.') },
        '/docs/b': { title: 'Config guide', body: article('Configure zanzibar with a yaml file.') },
        '/batch1': { title: 'Quokka facts', body: article('The quokka lives on Rottnest Island.') },
        '/gone': { status: 404, body: article('quokka not found page') },
      });
      t = await startTestApp({ backend, clock: () => now, env: { SCHEDULER_TICK_MS: '60000' } });
    });
    after(async () => {
      await t.close();
      await site.close();
    });

    const search = (body: Record<string, unknown>, key?: string) =>
      t.request('POST', '/v1/search', { body, ...(key ? { key } : {}) });

    it('finds a scraped page by its words, for its key only, with a snippet and the job recorded', async () => {
      const scraped = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/kettle` } });
      assert.equal(scraped.statusCode, 200, scraped.body);
      await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/tea` } });

      const res = await search({ query: 'copper induction' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { success: boolean; data: Result[]; job_id: string; engine: string };
      assert.equal(body.success, true);
      assert.equal(body.engine, 'index', 'the index is the default without SearXNG');
      assert.equal(body.data.length, 1);
      const hit = body.data[0] as Result;
      assert.equal(hit.url, `${site.url}/kettle`);
      assert.equal(hit.title, 'Copper kettle');
      assert.equal(hit.source, 'index');
      assert.match(hit.description, /induction/);
      assert.equal(hit.indexed_by_job, scraped.json().data.job_id);
      assert.equal(typeof hit.indexed_at, 'string');

      const kettle = (await search({ query: 'kettle' })).json().data as Result[];
      assert.deepEqual(
        kettle.map((r) => r.url),
        [`${site.url}/kettle`, `${site.url}/tea`],
      );
      assert.deepEqual((await search({ query: 'kettle' }, OTHER_KEY)).json().data, [], "another key's pages");

      const types = (await readEvents(t.app.db.kysely, { subjectId: body.job_id })).map((e) => e.type);
      assert.deepEqual(types, ['search.created', 'search.started', 'search.completed']);
      const completed = (await readEvents(t.app.db.kysely, { subjectId: body.job_id })).at(-1);
      assert.deepEqual(
        { ...(completed?.payload as Record<string, unknown>), created_at: 'x', completed_at: 'x' },
        {
          job_id: body.job_id,
          query: 'copper induction',
          engine: 'index',
          created_at: 'x',
          status: 'completed',
          total: 1,
          completed: 1,
          failed: 0,
          credits_used: 1,
          completed_at: 'x',
        },
      );
    });

    it('finds the pages of crawls and batch scrapes, with site: and limit/offset', async () => {
      const crawl = await t.request('POST', '/v1/crawl', { body: { url: `${site.url}/`, limit: 5 } });
      assert.equal(crawl.statusCode, 200, crawl.body);
      const done = await waitForCrawl((u) => t.request('GET', u), crawl.json().data.job_id as string);
      assert.equal(done.status, 'completed');
      const batch = await t.request('POST', '/v1/batch/scrape', {
        body: { urls: [`${site.url}/batch1`, `${site.url}/gone`] },
      });
      assert.equal(batch.statusCode, 200, batch.body);
      const batchId = batch.json().data.job_id as string;
      await until('the batch to end', async () => {
        const status = (await t.request('GET', `/v1/batch/scrape/${batchId}/status`)).json().data.status;
        return status === 'pending' ? undefined : status;
      });

      const zanzibar = (await search({ query: 'zanzibar' })).json().data as Result[];
      assert.deepEqual(zanzibar.map((r) => r.url).sort(), [`${site.url}/`, `${site.url}/docs/a`, `${site.url}/docs/b`]);
      const page2 = (await search({ query: 'zanzibar', limit: 2, offset: 2 })).json().data as Result[];
      assert.equal(page2.length, 1);
      assert.ok(!zanzibar.slice(0, 2).some((r) => r.url === page2[0]?.url), 'offset skips the first page of hits');
      assert.equal(
        ((await search({ query: 'zanzibar site:127.0.0.1' })).json().data as Result[]).length,
        3,
        'site: takes the host',
      );
      assert.deepEqual((await search({ query: 'zanzibar site:elsewhere.example' })).json().data, []);

      const quokka = (await search({ query: 'quokka' })).json().data as Result[];
      assert.deepEqual(
        quokka.map((r) => r.url),
        [`${site.url}/batch1`],
        'a batch page is indexed; one that answered 404 is not',
      );
    });

    it('scrapes each result with scrape_options, a failure per result', async () => {
      // A page of the index whose site has gone away since it was saved.
      const deadSite = await startCrawlSite({
        '/dodo': { title: 'Dodo', body: article('The dodo lived on Mauritius.') },
      });
      const url = `${deadSite.url}/dodo`;
      assert.equal((await t.request('POST', '/v1/scrape', { body: { url } })).statusCode, 200);
      await deadSite.close();
      await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/batch1`, formats: ['html'] } });

      const res = await search({
        query: 'dodo OR quokka',
        scrape_options: { formats: ['markdown'], max_age: 0, timeout: 5000 },
      });
      // "OR" is a word, not an operator: nothing has all three words.
      assert.deepEqual(res.json().data, []);

      const both = await search({ query: 'island', scrape_options: { formats: ['markdown'], max_age: 0 } });
      assert.equal(both.statusCode, 200, both.body);
      const items = both.json().data as Result[];
      assert.deepEqual(
        items.map((r) => r.url),
        [`${site.url}/batch1`],
      );
      const ok = items[0] as Result;
      assert.equal(ok.status, 'completed');
      assert.match(ok.markdown ?? '', /Rottnest Island/);
      assert.equal(ok.title, 'Quokka facts');

      const dead = await search({ query: 'mauritius', scrape_options: { max_age: 0, timeout: 5000 } });
      assert.equal(dead.statusCode, 200, dead.body);
      const [failed] = dead.json().data as Result[];
      assert.equal(failed?.url, url);
      assert.equal(failed?.status, 'failed');
      assert.equal(failed?.error_code, 'CONNECTION_REFUSED');
      const job = dead.json().job_id as string;
      const ended = (await readEvents(t.app.db.kysely, { subjectId: job })).at(-1);
      assert.equal(ended?.type, 'search.completed');
      assert.deepEqual(
        [
          (ended?.payload as { completed: number }).completed,
          (ended?.payload as { failed: number }).failed,
          (ended?.payload as { credits_used: number }).credits_used,
        ],
        [0, 1, 1],
      );
    });

    it('refuses bad input with the validation shape, naming the engines offered', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'query'],
        [{ query: '   ' }, 'query'],
        [{ query: 'x'.repeat(2001) }, 'query'],
        [{ query: 'kettle', limit: 101 }, 'limit'],
        [{ query: 'kettle', limit: 0 }, 'limit'],
        [{ query: 'kettle', offset: -1 }, 'offset'],
        [{ query: 'kettle', pages: 11 }, 'pages'],
        [{ query: 'kettle', lang: 'english please' }, 'lang'],
        [{ query: 'kettle', country: 'USA' }, 'country'],
        [{ query: 'kettle', timeRange: 'decade' }, 'timeRange'],
        [{ query: 'kettle', sources: 'videos' }, 'sources'],
        [{ query: 'kettle', safe_search: 3 }, 'safe_search'],
        [{ query: 'kettle', bogus: 1 }, 'bogus'],
        [{ query: 'kettle', scrape_options: { formats: ['nope'] } }, 'scrape_options.formats.0'],
        [{ query: 'kettle', engine: 'google' }, 'engine'],
        [{ query: 'kettle', engine: 'searxng' }, 'engine'],
        [{ query: 'kettle', engine: 'ac-engine' }, 'engine'],
        [{ query: 'kettle', sources: 'news' }, 'sources'],
        [{ query: '-kettle' }, 'query'],
      ];
      for (const [body, field] of cases) {
        const res = await search(body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
        const issues = res.json().data.issues as Array<{ field: string; message: string }>;
        assert.ok(
          issues.some((i) => i.field === field),
          `${field}: ${res.body.slice(0, 300)}`,
        );
      }
      const google = (await search({ query: 'kettle', engine: 'google' })).json();
      assert.match(google.data.issues[0].message, /not offered.*it offers: index/);
      const searxng = (await search({ query: 'kettle', engine: 'searxng' })).json();
      assert.match(searxng.data.issues[0].message, /SEARXNG_URL/);
      assert.equal((await t.request('POST', '/v1/search', { body: { query: 'x' }, key: null })).statusCode, 401);
      assert.equal((await search({ query: 'kettle', template_id: 'no-such-template' })).statusCode, 404);
    });

    it('runs a search task: its execution ends with the search', async () => {
      const created = await t.request('POST', '/v1/scheduled-tasks', {
        body: {
          name: 'kettle watch',
          cron_expression: '* * * * *',
          task_type: 'search',
          task_payload: { query: 'kettle', engine: 'index', limit: 5 },
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.task_id as string;
      assert.equal((await t.request('GET', `/v1/scheduled-tasks/${id}`)).json().data.min_credits_required, 5);
      const refused = await t.request('POST', '/v1/scheduled-tasks', {
        body: {
          name: 'google',
          cron_expression: '* * * * *',
          task_type: 'search',
          task_payload: { query: 'kettle', engine: 'google' },
        },
      });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().data.issues[0].field, 'task_payload.engine');

      now = new Date(now.getTime() + 60_000);
      const scheduler = t.app.scheduler as NonNullable<typeof t.app.scheduler>;
      const execution = await until('the execution to end', async () => {
        await scheduler.tick();
        const list = (await t.request('GET', `/v1/scheduled-tasks/${id}/executions`)).json().data as Array<
          Record<string, unknown>
        >;
        const first = list[0];
        return first && first.status !== 'running' && first.status !== 'pending' ? first : undefined;
      });
      assert.equal(execution.status, 'completed', JSON.stringify(execution));
      assert.equal(execution.items_succeeded, 2);
      const events = (await readEvents(t.app.db.kysely, { subjectId: execution.job_uuid as string })).map(
        (e) => e.type,
      );
      assert.deepEqual(events, ['search.created', 'search.started', 'search.completed']);
    });
  });
}

describe('POST /v1/search with SEARCH_INDEX=false', () => {
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    site = await startCrawlSite({ '/p': { title: 'Platypus', body: article('The platypus lays eggs.') } });
    t = await startTestApp({ env: { SEARCH_INDEX: 'false' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('indexes nothing and offers no engine, saying how to get one', async () => {
    assert.equal((await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/p` } })).statusCode, 200);
    const rows = await t.app.db.kysely.selectFrom('search_documents').select('id').execute();
    assert.equal(rows.length, 0);
    const res = await t.request('POST', '/v1/search', { body: { query: 'platypus' } });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().data.issues[0].message, /No search engine is offered.*SEARXNG_URL/);
  });
});
