// Template rules of docs/templates.md that templates-api.test.ts leaves unchecked, on both databases: typed `url`,
// `boolean` and `number` variables, placeholders in nested options and arrays, a use-time refusal by the merged
// request's validation, the private-address guard through templates, `/v1/search` by template_id, the template in
// each batch result, a crawl task naming a template inside its options (409 on delete), another key's template on PUT
// and DELETE, and the size and count limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CrawlSite, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { OTHER_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

interface Issue {
  field: string;
  message: string;
}

const article = (words: string) =>
  `<p>${words} This paragraph gives the extractor enough real sentences to see an article here, and it goes on for a while.</p><p>Another paragraph.</p>`;

// Two blocks told apart by class, so a selector filled from a variable shows in what the markdown keeps.
const twoBlocks =
  '<div class="price"><p>The crucible costs 77 euros, cash or card, at the counter of the shop.</p></div>' +
  '<div class="chatter"><p>Chatter about the weather that only the whole page shows, and nothing else.</p></div>';

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`template rules (${backend})`, () => {
    let t: TestApp;
    // The same service with the address guard on (test-app sets ALLOW_LOCAL_TARGETS=true unless told otherwise).
    let guarded: TestApp;
    let site: CrawlSite;
    before(async () => {
      site = await startCrawlSite({
        '/p/A1': { title: 'Anvil A1', body: article('The A1 anvil costs 149 euros.') },
        '/p/C3': { title: 'Crucible C3', body: twoBlocks },
        '/p/D4': { title: 'Dolly D4', body: article('The D4 dolly costs 12 euros and rolls on four wheels.') },
        '/': { title: 'Home', body: article('Welcome to the shop.') },
      });
      [t, guarded] = await Promise.all([
        startTestApp({ backend, env: { SCHEDULER_TICK_MS: '60000' } }),
        startTestApp({ backend, env: { ALLOW_LOCAL_TARGETS: 'false', SCHEDULER_TICK_MS: '60000' } }),
      ]);
    });
    after(async () => {
      await Promise.all([t.close(), guarded.close()]);
      await site.close();
    });

    const post = (url: string, body: unknown, key?: string) =>
      t.request('POST', url, { body, ...(key ? { key } : {}) });
    const issuesOf = (res: { json(): { data: { issues: Issue[] } } }) => res.json().data.issues;
    async function create(
      body: Record<string, unknown>,
      app: TestApp = t,
    ): Promise<Record<string, unknown> & { template_id: string }> {
      const res = await app.request('POST', '/v1/templates', { body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data;
    }
    /** Asserts a 400 whose issues name `field` exactly. */
    function assertRefused(res: Awaited<ReturnType<typeof post>>, field: string, label: string): Issue {
      assert.equal(res.statusCode, 400, `${label}: ${res.body.slice(0, 400)}`);
      const issue = issuesOf(res).find((i) => i.field === field);
      assert.ok(issue, `${label}: expected an issue on ${field}, got ${res.body.slice(0, 400)}`);
      return issue;
    }

    it('checks url, boolean and number variables by type, naming the variable', async () => {
      const template = await create({
        name: 'Typed',
        template_type: 'scrape',
        // A whole-URL placeholder: without the variable's own check, a bad value would surface as an issue on `url`.
        req_options: { url: '{{target}}', only_main_content: '{{main}}', timeout: '{{ms}}', max_age: 0 },
        variables: {
          target: { type: 'url', required: true },
          main: { type: 'boolean', defaultValue: true },
          ms: { type: 'number', defaultValue: 30_000 },
        },
      });
      const id = template.template_id;
      const good = { target: `${site.url}/p/A1`, main: false, ms: 20_000 };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...good, target: 'javascript:alert(1)' }, 'variables.target'],
        [{ ...good, target: 'ftp://x/' }, 'variables.target'],
        [{ ...good, target: 'not a url' }, 'variables.target'],
        [{ ...good, target: 42 }, 'variables.target'],
        [{ ...good, main: 'yes' }, 'variables.main'],
        // The string 'true' is not the boolean: docs say `true`/`false`.
        [{ ...good, main: 'true' }, 'variables.main'],
        [{ ...good, main: 1 }, 'variables.main'],
        // expand.ts `typed`: a number variable takes a finite JSON number only, not a numeric string.
        [{ ...good, ms: '12' }, 'variables.ms'],
        [{ ...good, ms: true }, 'variables.ms'],
      ];
      const hitsBefore = site.hits.get('/p/A1') ?? 0;
      for (const [variables, field] of cases) {
        const res = await post('/v1/scrape', { template_id: id, variables });
        assertRefused(res, field, JSON.stringify(variables));
        assert.ok(!issuesOf(res).some((i) => i.field === 'url'), 'the variable is refused, not the URL it makes');
      }
      assert.equal(site.hits.get('/p/A1') ?? 0, hitsBefore, 'a refused call fetches nothing');

      // The same call with well-typed values goes through: the refusals above were the values' types.
      const ok = await post('/v1/scrape', { template_id: id, variables: good });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().data.url, `${site.url}/p/A1`);
      assert.match(ok.json().data.markdown, /149 euros/);
    });

    it('fills placeholders inside arrays and nested objects, in a scrape and in a crawl’s scrape_options', async () => {
      const scrapeTemplate = await create({
        name: 'Selected block',
        template_type: 'scrape',
        req_options: {
          url: `${site.url}/p/C3`,
          include_tags: ['{{sel}}'],
          // An object's string values are filled too: the header reaches the site.
          headers: { 'x-sku': 'sku-{{sku}}' },
          formats: ['markdown'],
          max_age: 0,
        },
        variables: { sel: { type: 'string', required: true }, sku: { type: 'string', defaultValue: 'C3' } },
      });
      const price = await post('/v1/scrape', { template_id: scrapeTemplate.template_id, variables: { sel: '.price' } });
      assert.equal(price.statusCode, 200, price.body);
      assert.match(price.json().data.markdown, /77 euros/);
      assert.doesNotMatch(price.json().data.markdown, /weather/, 'only the selected block');
      assert.equal(site.headersOf.get('/p/C3')?.['x-sku'], 'sku-C3');
      const chatter = await post('/v1/scrape', {
        template_id: scrapeTemplate.template_id,
        variables: { sel: '.chatter', sku: 'Z9' },
      });
      assert.equal(chatter.statusCode, 200, chatter.body);
      assert.match(chatter.json().data.markdown, /weather/);
      assert.doesNotMatch(chatter.json().data.markdown, /77 euros/, 'the other selector, the other block');
      assert.equal(site.headersOf.get('/p/C3')?.['x-sku'], 'sku-Z9');

      // A search's scrape_options: each result is scraped with the filled selector (the index has /p/C3 now).
      const searchTemplate = await create({
        name: 'Selected block search',
        template_type: 'search',
        req_options: {
          query: 'crucible',
          engine: 'index',
          scrape_options: { include_tags: ['{{sel}}'], formats: ['markdown'], max_age: 0 },
        },
        variables: { sel: { type: 'string', required: true } },
      });
      const search = await until('the page to be indexed', async () => {
        const res = await post('/v1/search', { template_id: searchTemplate.template_id, variables: { sel: '.price' } });
        assert.equal(res.statusCode, 200, res.body);
        const data = res.json().data as Array<{ url: string; markdown?: string }>;
        return data.length > 0 ? data : undefined;
      });
      assert.deepEqual(
        search.map((r) => r.url),
        [`${site.url}/p/C3`],
      );
      assert.match(search[0]?.markdown ?? '', /77 euros/);
      assert.doesNotMatch(search[0]?.markdown ?? '', /weather/);

      const crawlTemplate = await create({
        name: 'Selected block crawl',
        template_type: 'crawl',
        req_options: {
          url: `${site.url}/p/C3`,
          limit: 1,
          scrape_options: { include_tags: ['{{sel}}'], formats: ['markdown'], max_age: 0 },
        },
        variables: { sel: { type: 'string', required: true } },
      });
      const crawl = await post('/v1/crawl', { template_id: crawlTemplate.template_id, variables: { sel: '.chatter' } });
      assert.equal(crawl.statusCode, 200, crawl.body);
      const jobId = crawl.json().data.job_id as string;
      const status = await waitForCrawl((u) => t.request('GET', u), jobId);
      assert.equal(status.status, 'completed', JSON.stringify(status));
      const results = (await t.request('GET', `/v1/crawl/${jobId}?skip=0`)).json().data as Array<{
        markdown: string;
      }>;
      assert.equal(results.length, 1);
      assert.match(results[0]?.markdown ?? '', /weather/);
      assert.doesNotMatch(results[0]?.markdown ?? '', /77 euros/);
    });

    it('refuses at use time a value that passed at save time but the merged request does not accept', async () => {
      // Saved with the default (2) standing in for the variable: a valid limit.
      const template = await create({
        name: 'Sized crawl',
        template_type: 'crawl',
        req_options: { url: `${site.url}/`, limit: '{{pages}}' },
        variables: { pages: { type: 'number', defaultValue: 2 } },
      });
      const res = await post('/v1/crawl', { template_id: template.template_id, variables: { pages: 1e12 } });
      assertRefused(res, 'limit', 'limit 1e12');
      assert.ok(
        !issuesOf(res).some((i) => i.field.startsWith('variables')),
        `a well-typed variable; the request's field is what is refused: ${res.body}`,
      );
      const fraction = await post('/v1/crawl', { template_id: template.template_id, variables: { pages: 1.5 } });
      assertRefused(fraction, 'limit', 'limit 1.5');
      const viaExecute = await post(`/v1/template/${template.template_id}/execute`, { variables: { pages: 1e12 } });
      assertRefused(viaExecute, 'limit', 'limit 1e12 via execute');
    });

    it('holds template targets to the private-address guard, with the error a direct request gets', async () => {
      const template = await create(
        {
          name: 'Any host',
          template_type: 'scrape',
          req_options: { url: 'http://{{host}}/', max_age: 0 },
          variables: { host: { type: 'string', required: true } },
        },
        guarded,
      );
      const call = (url: string, body: unknown) => guarded.request('POST', url, { body });
      const hitsBefore = [...site.hits.values()].reduce((a, b) => a + b, 0);
      // A value inside a URL is percent-encoded (':' too), so the site's own port comes in below, as a whole URL.
      for (const host of ['127.0.0.1', '169.254.169.254', '10.0.0.1']) {
        const direct = await call('/v1/scrape', { url: `http://${host}/`, max_age: 0 });
        assert.equal(direct.statusCode, 400, `${host} direct: ${direct.body}`);
        assert.equal(direct.json().code, 'BLOCKED_ADDRESS', direct.body);
        for (const [label, res] of [
          ['scrape', await call('/v1/scrape', { template_id: template.template_id, variables: { host } })],
          ['execute', await call(`/v1/template/${template.template_id}/execute`, { variables: { host } })],
        ] as const) {
          assert.equal(res.statusCode, direct.statusCode, `${host} ${label}: ${res.body}`);
          assert.deepEqual(
            withoutIds(res.json()),
            withoutIds(direct.json()),
            `${host} ${label}: the same refusal as a direct request`,
          );
        }
      }
      // A crawl template is refused as a direct crawl of the same seed is.
      const crawlTemplate = await create(
        {
          name: 'Any host crawl',
          template_type: 'crawl',
          req_options: { url: 'http://{{host}}/', limit: 1 },
          variables: { host: { type: 'string', required: true } },
        },
        guarded,
      );
      const directCrawl = await call('/v1/crawl', { url: 'http://169.254.169.254/', limit: 1 });
      assert.equal(directCrawl.json().code, 'BLOCKED_ADDRESS', directCrawl.body);
      for (const res of [
        await call('/v1/crawl', { template_id: crawlTemplate.template_id, variables: { host: '169.254.169.254' } }),
        await call(`/v1/template/${crawlTemplate.template_id}/execute`, { variables: { host: '169.254.169.254' } }),
      ]) {
        assert.equal(res.statusCode, directCrawl.statusCode, res.body);
        assert.deepEqual(withoutIds(res.json()), withoutIds(directCrawl.json()));
      }

      // The fixture site itself (loopback, with its port), from a whole-URL `url` variable.
      const anyUrl = await create(
        {
          name: 'Any URL',
          template_type: 'scrape',
          req_options: { url: '{{target}}', max_age: 0 },
          variables: { target: { type: 'url', required: true } },
        },
        guarded,
      );
      const target = `${site.url}/p/A1`;
      const direct = await call('/v1/scrape', { url: target, max_age: 0 });
      const viaTemplate = await call('/v1/scrape', { template_id: anyUrl.template_id, variables: { target } });
      const viaExecute = await call(`/v1/template/${anyUrl.template_id}/execute`, { variables: { target } });
      assert.equal(direct.json().code, 'BLOCKED_ADDRESS', direct.body);
      for (const res of [viaTemplate, viaExecute]) {
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(withoutIds(res.json()), withoutIds(direct.json()));
      }
      assert.equal(
        [...site.hits.values()].reduce((a, b) => a + b, 0),
        hitsBefore,
        'nothing reached the site through the guarded app',
      );
    });

    it('expands a search template given to /v1/search directly and names it in the answer', async () => {
      // The index engine searches this key's saved pages: scrape the one to be found first.
      const scraped = await post('/v1/scrape', { url: `${site.url}/p/D4`, max_age: 0 });
      assert.equal(scraped.statusCode, 200, scraped.body);
      const template = await create({
        name: 'Dolly search',
        template_type: 'search',
        req_options: { query: '{{product}} wheels', engine: 'index', limit: '{{n}}' },
        variables: { product: { type: 'string', required: true }, n: { type: 'number', defaultValue: 5 } },
      });
      const found = await until('the page to be indexed', async () => {
        const res = await post('/v1/search', { template_id: template.template_id, variables: { product: 'dolly' } });
        assert.equal(res.statusCode, 200, res.body);
        const answer = res.json() as { data: Array<{ url: string }>; engine: string; template?: unknown };
        return answer.data.length > 0 ? answer : undefined;
      });
      assert.deepEqual(
        found.data.map((r) => r.url),
        [`${site.url}/p/D4`],
      );
      assert.equal(found.engine, 'index', "the template's engine");
      assert.deepEqual(found.template, { template_id: template.template_id, version: 1 });

      // The current version at the moment of the call is the one named.
      const put = await t.request('PUT', `/v1/templates/${template.template_id}`, { body: { description: 'v2' } });
      assert.equal(put.statusCode, 200, put.body);
      const again = await post('/v1/search', { template_id: template.template_id, variables: { product: 'dolly' } });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json().template, { template_id: template.template_id, version: 2 });

      // Without a template the answer names none.
      const plain = await post('/v1/search', { query: 'dolly wheels', engine: 'index' });
      assert.equal(plain.statusCode, 200, plain.body);
      assert.equal(plain.json().template, undefined);
    });

    it("names the template and its version in each batch scrape result's metadata", async () => {
      const template = await create({
        name: 'Batch pages',
        template_type: 'scrape',
        req_options: { formats: ['markdown'], max_age: 0 },
      });
      await t.request('PUT', `/v1/templates/${template.template_id}`, { body: { description: 'version 2' } });
      const urls = [`${site.url}/p/A1`, `${site.url}/p/D4`];
      const res = await post('/v1/batch/scrape', { template_id: template.template_id, urls });
      assert.equal(res.statusCode, 200, res.body);
      const batchId = res.json().data.job_id as string;
      await until('the batch to end', async () => {
        const s = (await t.request('GET', `/v1/batch/scrape/${batchId}/status`)).json().data;
        return s.status === 'pending' ? undefined : s;
      });
      const results = (await t.request('GET', `/v1/batch/scrape/${batchId}`)).json().data as Array<{
        metadata: Record<string, unknown>;
        markdown?: string;
      }>;
      assert.equal(results.length, 2, JSON.stringify(results).slice(0, 400));
      for (const r of results) {
        assert.equal(r.metadata.template_id, template.template_id, JSON.stringify(r.metadata));
        assert.equal(r.metadata.template_version, 2, 'the version current when the batch was made');
        assert.equal(typeof r.markdown, 'string');
      }
    });

    it('refuses to delete a template that a crawl task names inside its options, by id or slug', async () => {
      const slug = `crawl-task-${backend}`;
      const template = await create({
        name: 'Crawl for tasks',
        slug,
        template_type: 'crawl',
        req_options: { limit: '{{pages}}' },
        variables: { pages: { type: 'number', defaultValue: 1 } },
      });
      const id = template.template_id;
      const task = async (name: string, ref: string) => {
        const res = await post('/v1/scheduled-tasks', {
          name,
          cron_expression: '0 6 * * *',
          task_type: 'crawl',
          task_payload: { url: `${site.url}/`, options: { template_id: ref, variables: { pages: 2 } } },
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().data.task_id as string;
      };
      const byId = await task('nightly crawl by id', id);
      const bySlug = await task('nightly crawl by slug', slug);

      const refused = await t.request('DELETE', `/v1/templates/${id}`);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().error, 'Template in use', refused.body);
      assert.deepEqual(
        (refused.json().data.tasks as Array<{ task_id: string; name: string }>)
          .map((x) => `${x.task_id} ${x.name}`)
          .sort(),
        [`${byId} nightly crawl by id`, `${bySlug} nightly crawl by slug`].sort(),
      );
      assert.equal((await t.request('GET', `/v1/templates/${id}`)).statusCode, 200, 'still there');

      assert.equal((await t.request('DELETE', `/v1/scheduled-tasks/${byId}`)).statusCode, 200);
      const stillSlug = await t.request('DELETE', `/v1/templates/${slug}`);
      assert.equal(stillSlug.statusCode, 409, 'the task naming it by slug still holds it');
      assert.deepEqual(
        (stillSlug.json().data.tasks as Array<{ task_id: string }>).map((x) => x.task_id),
        [bySlug],
      );
      assert.equal((await t.request('DELETE', `/v1/scheduled-tasks/${bySlug}`)).statusCode, 200);
      assert.equal((await t.request('DELETE', `/v1/templates/${id}`)).statusCode, 200);
    });

    it("answers 404 to PUT and DELETE of another key's template and leaves it as it was", async () => {
      const template = await create({
        name: 'Mine',
        slug: `mine-${backend}`,
        template_type: 'scrape',
        req_options: { formats: ['markdown'] },
      });
      const id = template.template_id;
      for (const ref of [id, `mine-${backend}`]) {
        const put = await t.request('PUT', `/v1/templates/${ref}`, {
          body: { description: 'taken over' },
          key: OTHER_KEY,
        });
        assert.equal(put.statusCode, 404, `PUT ${ref}: ${put.body}`);
        const del = await t.request('DELETE', `/v1/templates/${ref}`, { key: OTHER_KEY });
        assert.equal(del.statusCode, 404, `DELETE ${ref}: ${del.body}`);
      }
      const mine = (await t.request('GET', `/v1/templates/${id}`)).json().data;
      assert.equal(mine.current_version, 1, 'no version was added');
      assert.equal(mine.description, null);
    });

    it('refuses an update whose template would be over 64 KB, and keeps the current version', async () => {
      const template = await create({
        name: 'Growing',
        template_type: 'scrape',
        req_options: { formats: ['markdown'] },
      });
      const id = template.template_id;
      // Each field within its own limits (1,000-character descriptions, 200-character labels, 10,000 for the
      // template's description): only the whole is too big.
      const variables = (n: number) =>
        Object.fromEntries(
          Array.from({ length: n }, (_, i) => [
            `v${i}`,
            { type: 'string', description: 'd'.repeat(1000), label: 'l'.repeat(200) },
          ]),
        );
      const big = { description: 'x'.repeat(10_000), variables: variables(50) };
      assert.ok(JSON.stringify(big).length > 64 * 1024);
      const refused = await t.request('PUT', `/v1/templates/${id}`, { body: big });
      const issue = assertRefused(refused, '', 'over 64 KB');
      assert.match(issue.message, /64 KB/);
      assert.equal((await t.request('GET', `/v1/templates/${id}`)).json().data.current_version, 1);

      const fits = { description: 'x'.repeat(10_000), variables: variables(35) };
      const ok = await t.request('PUT', `/v1/templates/${id}`, { body: fits });
      assert.equal(ok.statusCode, 200, `the same fields, fewer of them: ${ok.body.slice(0, 300)}`);
      assert.equal(ok.json().data.version, 2);
    });

    it('holds a key to 1,000 templates (409 beyond), the other key unaffected', async () => {
      // OTHER_KEY's own count: the tests above create templates with TEST_KEY only (and one in the guarded app).
      const listed = (await t.request('GET', '/v1/templates?limit=1', { key: OTHER_KEY })).json().meta.total as number;
      const body = (i: number) => ({ name: `T${i}`, template_type: 'scrape', req_options: {} });
      for (let i = listed; i < 1000; i++) {
        const res = await post('/v1/templates', body(i), OTHER_KEY);
        assert.equal(res.statusCode, 201, `template ${i}: ${res.body}`);
      }
      const over = await post('/v1/templates', body(1000), OTHER_KEY);
      assert.equal(over.statusCode, 409, over.body);
      assert.equal(over.json().error, 'Too many templates');
      assert.equal(
        (await post('/v1/templates', body(0))).statusCode,
        201,
        "another key's templates do not count against this one",
      );
      // Room again after a delete.
      const one = (await t.request('GET', '/v1/templates?limit=1', { key: OTHER_KEY })).json().data[0];
      assert.equal((await t.request('DELETE', `/v1/templates/${one.template_id}`, { key: OTHER_KEY })).statusCode, 200);
      assert.equal((await post('/v1/templates', body(1000), OTHER_KEY)).statusCode, 201);
    });
  });
}

/** A refusal without the job id (each request makes its own job), to compare two refusals. */
function withoutIds(answer: Record<string, unknown>): Record<string, unknown> {
  const data = answer.data as Record<string, unknown> | undefined;
  if (data === undefined) return answer;
  const { job_id: jobId, ...rest } = data;
  void jobId;
  return { ...answer, data: rest };
}
