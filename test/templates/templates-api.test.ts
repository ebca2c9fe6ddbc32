// Templates end to end on both databases: management and versions, every expansion rule (variables, placeholders,
// field-by-field override, allowed domains, validation as a direct request), their use from scrape, crawl, batch
// scrape, search, AnyCrawl's execute endpoints and scheduled tasks, and the 404/400/409 answers.
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

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`templates (${backend})`, () => {
    let t: TestApp;
    let site: CrawlSite;
    let now = new Date(Date.now() + 1000);
    before(async () => {
      site = await startCrawlSite({
        '/p/A1': { title: 'Anvil A1', body: article('The A1 anvil costs 149 euros.') },
        '/p/B%202': { title: 'Bellows B2', body: article('The B2 bellows costs 39 euros.') },
        '/shop': { title: 'Shop', links: ['/p/A1'], body: article('The shop sells anvils.') },
        // Every fixture page links home first.
        '/': { title: 'Home', body: article('Welcome to the shop.') },
      });
      t = await startTestApp({ backend, clock: () => now, env: { SCHEDULER_TICK_MS: '60000' } });
    });
    after(async () => {
      await t.close();
      await site.close();
    });

    const post = (url: string, body: unknown, key?: string) =>
      t.request('POST', url, { body, ...(key ? { key } : {}) });
    const issuesOf = (res: { json(): { data: { issues: Issue[] } } }) => res.json().data.issues;
    async function create(body: Record<string, unknown>): Promise<Record<string, unknown> & { template_id: string }> {
      const res = await post('/v1/templates', body);
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data;
    }
    const productTemplate = () => ({
      name: 'Product page',
      slug: `product-${backend}`,
      template_type: 'scrape',
      req_options: { url: `${site.url}/p/{{sku}}`, formats: ['markdown', 'html'], engine: 'cheerio' },
      variables: { sku: { type: 'string', required: true, description: 'The product code' } },
      allowed_domains: { type: 'exact', patterns: ['127.0.0.1'] },
    });

    it('creates, reads, lists, updates as new versions and keeps the old ones readable', async () => {
      const created = await create({ ...productTemplate(), slug: `crud-${backend}`, tags: ['shop'] });
      assert.equal(created.version, 1);
      assert.equal(created.template_type, 'scrape');
      assert.deepEqual(created.placeholders, ['sku']);
      const id = created.template_id;
      const bySlug = await t.request('GET', `/v1/templates/crud-${backend}`);
      assert.equal(bySlug.json().data.template_id, id);

      const updated = await t.request('PUT', `/v1/templates/${id}`, {
        body: { description: 'v2', req_options: { url: `${site.url}/p/{{sku}}`, formats: ['markdown'] } },
      });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(updated.json().data.version, 2);
      assert.equal(updated.json().data.name, 'Product page', 'fields not given are kept');
      const v1 = (await t.request('GET', `/v1/templates/${id}?version=1`)).json().data;
      assert.deepEqual(v1.req_options.formats, ['markdown', 'html']);
      assert.equal(v1.current_version, 2);
      const versions = (await t.request('GET', `/v1/templates/${id}/versions`)).json().data;
      assert.deepEqual(
        versions.versions.map((v: { version: number }) => v.version),
        [2, 1],
      );
      assert.equal((await t.request('GET', `/v1/templates/${id}?version=9`)).statusCode, 404);

      const list = (await t.request('GET', '/v1/templates')).json();
      assert.ok(list.data.some((x: { template_id: string }) => x.template_id === id));
      assert.equal(typeof list.meta.total, 'number');
      assert.equal((await t.request('GET', `/v1/templates/${id}`, { key: OTHER_KEY })).statusCode, 404);
      assert.equal((await t.request('GET', '/v1/templates', { key: OTHER_KEY })).json().data.length, 0);

      const taken = await post('/v1/templates', { ...productTemplate(), slug: `crud-${backend}` });
      assert.equal(taken.statusCode, 400);
      assert.equal(issuesOf(taken)[0]?.field, 'slug');
      // Another key may use the same slug.
      assert.equal(
        (await post('/v1/templates', { ...productTemplate(), slug: `crud-${backend}` }, OTHER_KEY)).statusCode,
        201,
      );

      assert.equal((await t.request('DELETE', `/v1/templates/${id}`)).statusCode, 200);
      assert.equal((await t.request('GET', `/v1/templates/${id}`)).statusCode, 404);
    });

    it('refuses templates with bad declarations or options a request would refuse, naming the field', async () => {
      const base = productTemplate();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...base, variables: { 'bad name': { type: 'string' } } }, 'variables.bad name'],
        [{ ...base, variables: { sku: { type: 'number', defaultValue: 'x' } } }, 'variables.sku.defaultValue'],
        [{ ...base, variables: { sku: { type: 'date' } } }, 'variables.sku.type'],
        [{ ...base, variables: {} }, 'req_options'],
        [{ ...base, req_options: { ...base.req_options, bogus: 1 } }, 'req_options'],
        [{ ...base, req_options: { ...base.req_options, formats: ['nope'] } }, 'req_options.formats.0'],
        [{ ...base, req_options: { ...base.req_options, template_id: 'x' } }, 'req_options.template_id'],
        [
          { ...base, template_type: 'crawl', req_options: { url: base.req_options.url, limit: 'many' } },
          'req_options.limit',
        ],
        [{ ...base, template_type: 'search', req_options: { query: 'x' }, variables: {} }, 'allowed_domains'],
        [{ ...base, allowed_domains: { type: 'glob', patterns: ['(a+)+'] } }, 'allowed_domains.patterns.0'],
        [{ ...base, template_type: 'monitor' }, 'template_type'],
        [{ ...base, slug: 'Not A Slug' }, 'slug'],
        [{ ...base, slug: '0f8fad5b-d9cb-469f-a165-70867728950e' }, 'slug'],
        [{ ...base, req_options: { ...base.req_options, wait_for: '{{constructor}}' } }, 'req_options'],
        [{ ...base, req_options: { ...base.req_options, include_tags: ['x'.repeat(70_000)] } }, ''],
      ];
      for (const [body, field] of cases) {
        const res = await post('/v1/templates', body);
        assert.equal(res.statusCode, 400, `${field}: ${res.body.slice(0, 300)}`);
        assert.ok(
          issuesOf(res).some(
            (i) => i.field === field || (field === 'req_options' && i.field.startsWith('req_options')),
          ),
          `${field}: ${res.body.slice(0, 400)}`,
        );
      }
    });

    it('scrapes from a template: variables fill the URL (encoded), own fields override, the job names the template', async () => {
      const template = await create(productTemplate());
      const res = await post('/v1/scrape', { template_id: template.template_id, variables: { sku: 'A1' } });
      assert.equal(res.statusCode, 200, res.body);
      const data = res.json().data;
      assert.equal(data.url, `${site.url}/p/A1`);
      assert.match(data.markdown, /149 euros/);
      assert.equal(typeof data.html, 'string', "the template's formats");
      assert.equal(data.metadata.template_id, template.template_id);
      assert.equal(data.metadata.template_version, 1);

      const spaced = await post('/v1/scrape', {
        template_id: template.slug,
        variables: { sku: 'B 2' },
        formats: ['text'],
      });
      assert.equal(spaced.statusCode, 200, spaced.body);
      assert.equal(spaced.json().data.url, `${site.url}/p/B%202`, 'a value inside a URL is percent-encoded');
      assert.match(spaced.json().data.text, /B2 bellows/);
      assert.equal(spaced.json().data.html, undefined, "the caller's formats replace the template's");

      // AnyCrawl's SDK sends engine "auto" with every scrape: the template's engine stays; another engine overrides.
      const engineOf = async (jobId: string) =>
        JSON.parse(
          (await t.app.db.kysely.selectFrom('jobs').select('options').where('id', '=', jobId).executeTakeFirstOrThrow())
            .options,
        ).engine as string;
      const viaSdk = await post('/v1/scrape', {
        template_id: template.template_id.toUpperCase(),
        variables: { sku: 'A1' },
        engine: 'auto',
      });
      assert.equal(viaSdk.statusCode, 200, `an id in upper case is the same id: ${viaSdk.body.slice(0, 300)}`);
      assert.equal(await engineOf(viaSdk.json().data.jobId ?? viaSdk.json().data.job_id), 'cheerio');
    });

    it('answers 404 for an unknown template or another key’s, and 400 naming the variable or field', async () => {
      const template = await create({ ...productTemplate(), slug: `errors-${backend}` });
      const id = template.template_id;
      const amplifier = (
        await create({
          name: 'Amplifier',
          template_type: 'scrape',
          req_options: { url: `${site.url}/p/x`, json_options: { schema: { d: '{{u}}'.repeat(12_500) } } },
          variables: { u: { type: 'url' } },
        })
      ).template_id;
      assert.equal((await post('/v1/scrape', { template_id: 'nope', variables: { sku: 'A1' } })).statusCode, 404);
      assert.equal(
        (await post('/v1/scrape', { template_id: id, variables: { sku: 'A1' } }, OTHER_KEY)).statusCode,
        404,
      );
      const cases: Array<[Record<string, unknown>, string, number]> = [
        [{ template_id: id }, 'variables.sku', 400],
        [{ template_id: id, variables: { sku: 7 } }, 'variables.sku', 400],
        [{ template_id: id, variables: { sku: 'A1', color: 'red' } }, 'variables.color', 400],
        [{ template_id: id, variables: { sku: 'A1' }, formats: ['nope'] }, 'formats.0', 400],
        [{ template_id: id, variables: { sku: 'A1' }, url: 'https://elsewhere.example/x' }, 'url', 400],
        [{ template_id: id, variables: 'sku=A1' }, 'variables', 400],
        [{ template_id: id, variables: { sku: 'A1', toString: 'x' } }, 'variables.toString', 400],
        [{ template_id: id, variables: { sku: 'A1', constructor: 'x' } }, 'variables.constructor', 400],
        [{ url: `${site.url}/p/A1`, variables: { sku: 'A1' } }, 'variables', 400],
        // 64 KB of placeholders times an 8 KB value: refused before it is built (it was 100 MB of strings, 0.5 s).
        [{ template_id: amplifier, variables: { u: `https://example.com/${'a'.repeat(8150)}` } }, 'variables', 400],
      ];
      for (const [body, field, status] of cases) {
        const res = await post('/v1/scrape', body);
        assert.equal(res.statusCode, status, `${field}: ${res.body.slice(0, 300)}`);
        assert.ok(
          issuesOf(res).some((i) => i.field === field),
          `${field}: ${res.body.slice(0, 300)}`,
        );
      }
      const crawlOnScrape = await post('/v1/crawl', { template_id: id, variables: { sku: 'A1' } });
      assert.equal(crawlOnScrape.statusCode, 400);
      assert.match(issuesOf(crawlOnScrape)[0]?.message ?? '', /scrape template; this request takes a crawl template/);
    });

    it('batch-scrapes from a template with URLs past 1 MiB (the batch body limit, not the 1 MB expansion cap)', async () => {
      const template = await create({ ...productTemplate(), slug: `big-batch-${backend}` });
      // The shop page: the later search for "anvil euros" must not find this batch's page.
      const long = `${site.url}/shop?q=${'x'.repeat(600)}`;
      const res = await post('/v1/batch/scrape', {
        template_id: template.template_id,
        variables: { sku: 'A1' },
        urls: Array(2000).fill(long),
      });
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      assert.equal(res.json().data.total, 1, 'the copies of one URL are one page');
      const jobId = res.json().data.job_id as string;
      await until('the batch to end', async () => {
        const status = (await t.request('GET', `/v1/batch/scrape/${jobId}/status`)).json().data;
        return status.status === 'pending' ? undefined : status;
      });
    });

    it('holds URLs to allowed_domains, exact or glob', async () => {
      const glob = await create({
        ...productTemplate(),
        slug: `glob-${backend}`,
        allowed_domains: { type: 'glob', patterns: ['*.example.com', 'shop-?.test'] },
      });
      const res = await post('/v1/scrape', { template_id: glob.template_id, variables: { sku: 'A1' } });
      assert.equal(res.statusCode, 400);
      assert.match(issuesOf(res)[0]?.message ?? '', /127\.0\.0\.1 is outside the template's allowed domains/);
      const wide = await create({
        ...productTemplate(),
        slug: `wide-${backend}`,
        allowed_domains: { type: 'glob', patterns: ['127.0.0.*'] },
      });
      assert.equal(
        (await post('/v1/scrape', { template_id: wide.template_id, variables: { sku: 'A1' } })).statusCode,
        200,
      );
    });

    it('crawls and batch-scrapes from templates, naming them in status and results', async () => {
      const crawlTemplate = await create({
        name: 'Shop crawl',
        template_type: 'crawl',
        req_options: { url: `${site.url}/{{start}}`, limit: '{{pages}}', scrape_options: { formats: ['markdown'] } },
        variables: { start: { type: 'string', defaultValue: 'shop' }, pages: { type: 'number', defaultValue: 2 } },
      });
      const res = await post('/v1/crawl', {
        template_id: crawlTemplate.template_id,
        scrape_options: { formats: ['text'] },
      });
      assert.equal(res.statusCode, 200, res.body);
      const jobId = res.json().data.job_id as string;
      const status = await waitForCrawl((u) => t.request('GET', u), jobId);
      assert.equal(status.status, 'completed');
      assert.equal(status.total, 2, `a number variable fills a number field: ${JSON.stringify(status)}`);
      assert.deepEqual(status.template, { template_id: crawlTemplate.template_id, version: 1 });
      const results = (await t.request('GET', `/v1/crawl/${jobId}?skip=0`)).json().data as Array<
        Record<string, unknown> & { metadata: Record<string, unknown> }
      >;
      assert.equal(results.length, 2);
      for (const r of results) {
        assert.equal(r.metadata.template_id, crawlTemplate.template_id);
        assert.equal(typeof r.text, 'string', 'scrape_options merged field by field: text replaces markdown');
        assert.equal(r.markdown, undefined);
      }

      const scrapeTemplate = await create({
        ...productTemplate(),
        slug: `batch-${backend}`,
        variables: {},
        req_options: { formats: ['markdown'] },
      });
      const batch = await post('/v1/batch/scrape', {
        template_id: scrapeTemplate.template_id,
        urls: [`${site.url}/p/A1`, 'https://elsewhere.example/'],
      });
      assert.equal(batch.statusCode, 400, 'each URL is held to the allowed domains');
      assert.equal(issuesOf(batch)[0]?.field, 'urls.1');
      const ok = await post('/v1/batch/scrape', {
        template_id: scrapeTemplate.template_id,
        urls: [`${site.url}/p/A1`],
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const batchId = ok.json().data.job_id as string;
      const done = await until('the batch to end', async () => {
        const s = (await t.request('GET', `/v1/batch/scrape/${batchId}/status`)).json().data;
        return s.status === 'pending' ? undefined : s;
      });
      assert.deepEqual(done.template, { template_id: scrapeTemplate.template_id, version: 1 });
    });

    it("runs AnyCrawl's spec and execute endpoints by id or slug", async () => {
      const template = await create({ ...productTemplate(), slug: `exec-${backend}` });
      const spec = await t.request('GET', `/v1/template/exec-${backend}`);
      assert.equal(spec.statusCode, 200, spec.body);
      const data = spec.json().data;
      assert.equal(data.template_id, template.template_id);
      assert.equal(data.template_type, 'scrape');
      assert.deepEqual(data.endpoint, { method: 'POST', path: `/v1/template/exec-${backend}/execute` });
      assert.equal(data.variables.sku.type, 'string');
      assert.equal(data.req_options, undefined, 'the spec does not show the preset options');

      const run = await post(`/v1/template/exec-${backend}/execute`, { variables: { sku: 'A1' } });
      assert.equal(run.statusCode, 200, run.body);
      assert.match(run.json().data.markdown, /149 euros/);
      assert.equal(run.json().data.metadata.template_id, template.template_id);
      const wrong = await post(`/v1/template/${template.template_id}/execute`, {
        query: 'x',
        variables: { sku: 'A1' },
      });
      assert.equal(wrong.statusCode, 400);
      assert.equal(issuesOf(wrong)[0]?.field, 'query');
      const extra = await post(`/v1/template/${template.template_id}/execute`, {
        variables: { sku: 'A1' },
        formats: ['html'],
      });
      assert.equal(extra.statusCode, 400, 'only url, query and variables');
      assert.equal((await post('/v1/template/nope/execute', {})).statusCode, 404);

      // A page of the index to find: the scrape above indexed /p/A1.
      const searchTemplate = await create({
        name: 'Product search',
        template_type: 'search',
        req_options: { query: '{{product}} euros', engine: 'index', limit: 5 },
        variables: { product: { type: 'string', required: true } },
      });
      const found = await post(`/v1/template/${searchTemplate.template_id}/execute`, {
        variables: { product: 'anvil' },
      });
      assert.equal(found.statusCode, 200, found.body);
      assert.deepEqual(
        (found.json().data as Array<{ url: string }>).map((r) => r.url),
        [`${site.url}/p/A1`],
      );
      assert.deepEqual(found.json().template, { template_id: searchTemplate.template_id, version: 1 });

      const crawlTemplate = await create({
        name: 'One page crawl',
        template_type: 'crawl',
        req_options: { limit: 1 },
      });
      const crawl = await post(`/v1/template/${crawlTemplate.template_id}/execute`, { url: `${site.url}/shop` });
      assert.equal(crawl.statusCode, 200, crawl.body);
      assert.equal(crawl.json().data.status, 'created');
      const status = await waitForCrawl((u) => t.request('GET', u), crawl.json().data.job_id as string);
      assert.equal(status.completed, 1);
    });

    it('runs template tasks from the current version, and refuses to delete a template that tasks use', async () => {
      const template = await create({ ...productTemplate(), slug: `daily-${backend}` });
      const id = template.template_id;
      const badTask = await post('/v1/scheduled-tasks', {
        name: 'bad',
        cron_expression: '0 6 * * *',
        task_type: 'template',
        task_payload: { template_id: id },
      });
      assert.equal(badTask.statusCode, 400, 'a required variable is missing');
      assert.equal(issuesOf(badTask)[0]?.field, 'task_payload.variables.sku');
      const unknown = await post('/v1/scheduled-tasks', {
        name: 'unknown',
        cron_expression: '0 6 * * *',
        task_type: 'template',
        task_payload: { template_id: 'nope' },
      });
      assert.equal(unknown.statusCode, 404, 'an unknown template is a 404 in a task as anywhere');
      assert.equal(unknown.json().message, 'Template not found');
      const wrongInput = await post('/v1/scheduled-tasks', {
        name: 'query for a scrape template',
        cron_expression: '0 6 * * *',
        task_type: 'template',
        task_payload: { template_id: id, query: 'anvils', variables: { sku: 'A1' } },
      });
      assert.equal(wrongInput.statusCode, 400, 'a scrape template takes url, not query');
      assert.equal(issuesOf(wrongInput)[0]?.field, 'task_payload.query');
      const strayVariables = await post('/v1/scheduled-tasks', {
        name: 'variables without a template',
        cron_expression: '0 6 * * *',
        task_type: 'scrape',
        task_payload: { url: `${site.url}/p/A1`, variables: { sku: 'A1' } },
      });
      assert.equal(strayVariables.statusCode, 400, strayVariables.body);
      assert.equal(issuesOf(strayVariables)[0]?.field, 'task_payload.variables');

      const created = await post('/v1/scheduled-tasks', {
        name: 'daily A1',
        cron_expression: '* * * * *',
        task_type: 'template',
        task_payload: { template_id: id, variables: { sku: 'A1' } },
      });
      assert.equal(created.statusCode, 201, created.body);
      const taskId = created.json().data.task_id as string;
      const viaScrape = await post('/v1/scheduled-tasks', {
        name: 'scrape with template',
        cron_expression: '0 6 * * *',
        task_type: 'scrape',
        // By slug.
        task_payload: { template_id: `daily-${backend}`, variables: { sku: 'B 2' } },
      });
      assert.equal(viaScrape.statusCode, 201, viaScrape.body);

      // A new version: the task runs with it.
      await t.request('PUT', `/v1/templates/${id}`, { body: { description: 'version 2' } });
      now = new Date(now.getTime() + 60_000);
      const scheduler = t.app.scheduler as NonNullable<typeof t.app.scheduler>;
      const execution = await until('the execution to end', async () => {
        await scheduler.tick();
        const list = (await t.request('GET', `/v1/scheduled-tasks/${taskId}/executions`)).json().data as Array<
          Record<string, unknown>
        >;
        const first = list[0];
        return first && first.status !== 'running' && first.status !== 'pending' ? first : undefined;
      });
      assert.equal(execution.status, 'completed', JSON.stringify(execution));
      const job = await t.app.db.kysely
        .selectFrom('jobs')
        .select(['options', 'kind'])
        .where('id', '=', execution.job_uuid as string)
        .executeTakeFirstOrThrow();
      assert.equal(job.kind, 'scrape');
      assert.deepEqual(JSON.parse(job.options).template, { id, version: 2 });

      // The id in upper case is the same template: the task holds it as well.
      const upper = await post('/v1/scheduled-tasks', {
        name: 'upper-case id',
        cron_expression: '0 6 * * *',
        task_type: 'template',
        task_payload: { template_id: id.toUpperCase(), variables: { sku: 'C3' } },
      });
      assert.equal(upper.statusCode, 201, upper.body);
      const refused = await t.request('DELETE', `/v1/templates/${id}`);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.deepEqual(
        (refused.json().data.tasks as Array<{ task_id: string }>).map((x) => x.task_id).sort(),
        [taskId, viaScrape.json().data.task_id, upper.json().data.task_id].sort(),
      );
      await t.request('DELETE', `/v1/scheduled-tasks/${upper.json().data.task_id}`);
      assert.match(refused.json().message, /daily A1/);
      const renamed = await t.request('PUT', `/v1/templates/${id}`, { body: { slug: 'another-slug' } });
      assert.equal(renamed.statusCode, 409, 'a task names the template by its slug');
      assert.deepEqual(
        (renamed.json().data.tasks as Array<{ task_id: string }>).map((x) => x.task_id),
        [viaScrape.json().data.task_id],
      );
      // A version the tasks' next runs would refuse is not saved: a new required variable, domains leaving theirs out.
      const needsColor = await t.request('PUT', `/v1/templates/${id}`, {
        body: {
          variables: {
            sku: { type: 'string', required: true },
            color: { type: 'string', required: true },
          },
        },
      });
      assert.equal(needsColor.statusCode, 409, needsColor.body);
      const broken = needsColor.json().data.tasks as Array<{ task_id: string; issues: Array<{ field: string }> }>;
      assert.deepEqual(broken.map((x) => x.task_id).sort(), [taskId, viaScrape.json().data.task_id].sort());
      assert.deepEqual(
        broken.map((x) => x.issues.map((i) => i.field)),
        [['variables.color'], ['variables.color']],
      );
      const elsewhere = await t.request('PUT', `/v1/templates/${id}`, {
        body: { allowed_domains: { type: 'exact', patterns: ['shop.example'] } },
      });
      assert.equal(elsewhere.statusCode, 409, elsewhere.body);
      assert.equal(elsewhere.json().data.tasks[0].issues[0].field, 'url');
      const optional = await t.request('PUT', `/v1/templates/${id}`, {
        body: {
          variables: {
            sku: { type: 'string', required: true },
            color: { type: 'string', defaultValue: 'red' },
          },
        },
      });
      assert.equal(optional.statusCode, 200, 'a variable with a default breaks no task');
      assert.equal(optional.json().data.version, 3);

      await t.request('DELETE', `/v1/scheduled-tasks/${taskId}`);
      await t.request('DELETE', `/v1/scheduled-tasks/${viaScrape.json().data.task_id}`);
      assert.equal((await t.request('DELETE', `/v1/templates/${id}`)).statusCode, 200);
    });
  });
}
