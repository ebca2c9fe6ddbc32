// The json and summary formats through the API: validation, the rules path (no model), the model path against a
// local OpenAI-compatible stand-in (answering, failing, slow), crawls and tasks (docs/structured.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.js';
import { type LlmServer, reply, startLlmServer } from '../fixtures/llm-server.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { loadConfig } from '../../src/config.js';

const PRODUCT_LD = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Acme Anvil 3000',
  sku: 'AN-3000',
  offers: { '@type': 'Offer', price: '149.99', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
};

const PRODUCT_BODY = `<script type="application/ld+json">${JSON.stringify(PRODUCT_LD)}</script>
<p>The Acme Anvil 3000 is the heaviest anvil we have ever made. It is forged from a single block of steel and rings
like a bell when struck. Blacksmiths across the country use it every day for their finest work.</p>
<p>It weighs fifty kilograms and ships on a pallet. Delivery takes about a week within the country.</p>
<p>Every anvil is tested by hand before it leaves the forge, and comes with a lifetime guarantee.</p>`;

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    color: { type: 'string' },
  },
  required: ['name'],
};

function pages(count: number): Record<string, { title: string; body: string; links: string[] }> {
  const out: Record<string, { title: string; body: string; links: string[] }> = {};
  for (let i = 0; i < count; i++) {
    out[i === 0 ? '/' : `/p/${i}`] = {
      title: `Product ${i}`,
      body: PRODUCT_BODY.replace('Acme Anvil 3000', `Acme Anvil ${i}`),
      links: i === 0 ? Array.from({ length: count - 1 }, (_, j) => `/p/${j + 1}`) : [],
    };
  }
  return out;
}

describe('json and summary without a model (the built-in rules)', () => {
  let site: CrawlSite;
  let t: TestApp;
  before(async () => {
    site = await startCrawlSite(pages(4));
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('refuses what cannot work with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ formats: ['json'] }, 'json_options', /needs json_options/],
      [{ json_options: { schema: SCHEMA } }, 'json_options', /add 'json' to formats/],
      [{ formats: ['json'], json_options: {} }, 'json_options', /a schema, a user_prompt or both/],
      [
        { formats: ['json'], json_options: { schema: { type: 'object', properties: { a: { type: 'nope' } } } } },
        'json_options.schema.properties.a.type',
        /Not a valid JSON Schema/,
      ],
      [{ formats: ['json'], json_options: { schema: { type: 'array' } } }, 'json_options.schema.type', /object/],
      [
        {
          formats: ['json'],
          json_options: { schema: { type: 'object', properties: { a: { type: 'string', pattern: '(a+)\\1' } } } },
        },
        'json_options.schema',
        /does not compile/,
      ],
      [
        { formats: ['json'], json_options: { schema: { type: 'object', properties: { a: { $ref: 'http://x/s' } } } } },
        'json_options.schema',
        /does not compile/,
      ],
    ];
    for (const [extra, field, message] of cases) {
      const res = await t.request('POST', '/v1/scrape', { body: { url: `${site.url}/`, ...extra } });
      assert.equal(res.statusCode, 400, `${JSON.stringify(extra)}: ${res.body}`);
      const issue = res.json().data.issues.find((i: { field: string }) => i.field === field);
      assert.ok(issue, `${JSON.stringify(extra)} -> ${res.body}`);
      assert.match(issue.message, message);
    }
    // Too deep, and an unknown member of json_options.
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) deep = { type: 'object', properties: { x: deep } };
    const tooDeep = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/`, formats: ['json'], json_options: { schema: deep } },
    });
    assert.equal(tooDeep.statusCode, 400);
    assert.match(tooDeep.body, /16 deep/);
    const unknown = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/`, formats: ['json'], json_options: { user_prompt: 'x', model: 'gpt' } },
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().data.issues[0].code, 'unrecognized_keys');
  });

  it('fills the schema from the page, null where the page says nothing, and labels it rules', async () => {
    const res = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/p/1`, formats: ['markdown', 'json', 'summary'], json_options: { schema: SCHEMA } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual(data.json, { name: 'Acme Anvil 1', price: 149.99, currency: 'EUR', color: null });
    assert.equal(data.metadata.extraction, 'rules');
    assert.equal(data.metadata.llm_usage, undefined);
    assert.equal(typeof data.summary, 'string');
    assert.ok(data.summary.length > 0 && data.summary.length <= 800, data.summary);
    // Extractive: every sentence of the summary is one of the page's own.
    for (const sentence of data.summary.split(/(?<=\.)\s+/)) assert.ok(data.markdown.includes(sentence), sentence);
    assert.match(data.markdown, /heaviest anvil/);
  });

  it('answers json and summary in every page of a crawl', async () => {
    const created = await t.request('POST', '/v1/crawl', {
      body: {
        url: `${site.url}/`,
        limit: 10,
        scrape_options: { formats: ['json', 'summary'], json_options: { schema: SCHEMA } },
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json().data.job_id as string;
    const status = await until('the crawl to end', async () => {
      const s = (await t.request('GET', `/v1/crawl/${id}/status`)).json().data;
      return s.status === 'pending' ? undefined : s;
    });
    assert.equal(status.status, 'completed');
    assert.equal(status.completed, 4);
    const results = (await t.request('GET', `/v1/crawl/${id}?skip=0`)).json().data as Array<Record<string, unknown>>;
    assert.equal(results.length, 4);
    for (const item of results) {
      const json = item.json as Record<string, unknown>;
      assert.match(String(json.name), /^Acme Anvil \d$/);
      assert.equal(json.price, 149.99);
      assert.equal(typeof item.summary, 'string');
      assert.equal((item.metadata as Record<string, unknown>).extraction, 'rules');
    }
  });

  it('refuses json at task creation when json_options is missing, and accepts it with a schema', async () => {
    const base = { name: 'json task', cron_expression: '0 * * * *', task_type: 'scrape' };
    const bad = await t.request('POST', '/v1/scheduled-tasks', {
      body: { ...base, task_payload: { url: `${site.url}/`, formats: ['json'] } },
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.json().data.issues[0].field, 'task_payload.json_options');
    const good = await t.request('POST', '/v1/scheduled-tasks', {
      body: { ...base, task_payload: { url: `${site.url}/`, formats: ['json'], json_options: { schema: SCHEMA } } },
    });
    assert.equal(good.statusCode, 201, good.body);
  });
});

describe('json and summary in the extraction threads', () => {
  let site: CrawlSite;
  let t: TestApp;
  before(async () => {
    site = await startCrawlSite(pages(2));
    t = await startTestApp({ env: { EXTRACT_THREADS: '1' } });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('gives the same answer as in-process extraction', async () => {
    const res = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/p/1`, formats: ['json', 'summary'], json_options: { schema: SCHEMA } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual(data.json, { name: 'Acme Anvil 1', price: 149.99, currency: 'EUR', color: null });
    assert.ok(data.summary.length > 0);
    assert.equal(data.markdown, undefined, 'markdown was not asked for');
  });
});

describe('STRUCTURED_REQUIRE_MODEL without a model', () => {
  it('refuses json and summary with a 400 that says how to configure one', async () => {
    const t = await startTestApp({ env: { STRUCTURED_REQUIRE_MODEL: 'true' } });
    try {
      const res = await t.request('POST', '/v1/scrape', {
        body: { url: 'http://127.0.0.1:9/', formats: ['markdown', 'summary'] },
      });
      assert.equal(res.statusCode, 400, res.body);
      const issue = res.json().data.issues[0];
      assert.equal(issue.field, 'formats.1');
      assert.match(issue.message, /LLM_BASE_URL and LLM_MODEL/);
    } finally {
      await t.close();
    }
  });
});

describe('json and summary through a model', () => {
  let site: CrawlSite;
  let llm: LlmServer;
  let t: TestApp;
  before(async () => {
    site = await startCrawlSite(pages(6));
    llm = await startLlmServer();
    t = await startTestApp({
      env: {
        LLM_BASE_URL: llm.url,
        LLM_MODEL: 'stand-in',
        LLM_API_KEY: 'sk-test-secret',
        LLM_MAX_RETRIES: '1',
        LLM_TIMEOUT_MS: '1000',
        LLM_CONCURRENCY: '3',
      },
    });
  });
  after(async () => {
    await t.close();
    await llm.close();
    await site.close();
  });

  it('sends the page and the schema, validates the answer and reports the usage', async () => {
    llm.reset();
    llm.setBehaviour((request) =>
      request.body.response_format !== undefined
        ? reply.json({ name: 'Acme Anvil 1', price: 149.99, currency: 'EUR' })
        : reply.text('An anvil forged from one block of steel.'),
    );
    const res = await t.request('POST', '/v1/scrape', {
      body: {
        url: `${site.url}/p/1`,
        formats: ['markdown', 'json', 'summary'],
        json_options: { schema: SCHEMA, user_prompt: 'The product' },
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual(data.json, { name: 'Acme Anvil 1', price: 149.99, currency: 'EUR' });
    assert.equal(data.summary, 'An anvil forged from one block of steel.');
    assert.equal(data.metadata.extraction, 'llm');
    assert.equal(data.metadata.llm_model, 'stand-in');
    assert.deepEqual(data.metadata.llm_usage, { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    assert.equal(data.metadata.llm_input_truncated, false);
    assert.equal(llm.requests.length, 2);
    for (const request of llm.requests) {
      assert.equal(request.body.model, 'stand-in');
      assert.equal(request.headers.authorization, 'Bearer sk-test-secret');
      const prompt = (request.body.messages ?? []).map((m) => m.content).join('\n');
      assert.match(prompt, /heaviest anvil we have ever made/);
    }
    const jsonCall = llm.requests.find((r) => r.body.response_format !== undefined);
    assert.match(JSON.stringify(jsonCall?.body.response_format), /"price"/);
  });

  it('keeps the page when the model fails: markdown returned, json null with its error code', async () => {
    llm.setBehaviour(() => reply.serverError());
    const res = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/p/2`, formats: ['markdown', 'json'], json_options: { schema: SCHEMA } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.match(data.markdown, /heaviest anvil/);
    assert.equal(data.json, null);
    assert.equal(data.metadata.json_error.code, 'LLM_UNAVAILABLE');
    assert.doesNotMatch(res.body, /sk-test-secret/);
  });

  it('gives LLM_INVALID_OUTPUT, never an object that fails the schema', async () => {
    llm.setBehaviour(() => reply.json({ name: 42 }));
    const res = await t.request('POST', '/v1/scrape', {
      body: { url: `${site.url}/p/3`, formats: ['json'], json_options: { schema: SCHEMA } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.equal(data.json, null);
    assert.equal(data.metadata.json_error.code, 'LLM_INVALID_OUTPUT');
    assert.ok(data.metadata.llm_usage.total_tokens > 0, 'the failed calls still count');
  });

  it('cuts content over the budget and says so', async () => {
    const small = await startTestApp({
      env: { LLM_BASE_URL: llm.url, LLM_MODEL: 'stand-in', LLM_MAX_INPUT_CHARS: '1000' },
    });
    try {
      llm.reset();
      llm.setBehaviour(() => reply.json({ name: 'x' }));
      const long = await startCrawlSite({
        '/': {
          title: 'Long',
          body: Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i} of a long page.</p>`).join(''),
        },
      });
      try {
        const res = await small.request('POST', '/v1/scrape', {
          body: { url: `${long.url}/`, formats: ['json'], json_options: { user_prompt: 'the title' } },
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().data.metadata.llm_input_truncated, true);
        const prompt = (llm.requests[0]?.body.messages ?? []).map((m) => m.content).join('\n');
        assert.match(prompt, /Paragraph 0 of a long page/);
        assert.doesNotMatch(prompt, /Paragraph 59 of a long page/);
      } finally {
        await long.close();
      }
    } finally {
      await small.close();
    }
  });

  it('crawls with the model failing midway: every page saved, counts right', async () => {
    let calls = 0;
    llm.setBehaviour(() => (++calls <= 2 ? reply.json({ name: 'ok' }) : reply.serverError()));
    const created = await t.request('POST', '/v1/crawl', {
      body: {
        url: `${site.url}/`,
        limit: 10,
        scrape_options: { formats: ['markdown', 'json'], json_options: { schema: SCHEMA } },
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json().data.job_id as string;
    const status = await until(
      'the crawl to end',
      async () => {
        const s = (await t.request('GET', `/v1/crawl/${id}/status`)).json().data;
        return s.status === 'pending' ? undefined : s;
      },
      30_000,
    );
    assert.equal(status.status, 'completed');
    assert.equal(status.completed, 6);
    assert.equal(status.failed, 0);
    assert.equal(status.credits_used, 6);
    const results = (await t.request('GET', `/v1/crawl/${id}?skip=0`)).json().data as Array<Record<string, unknown>>;
    assert.equal(results.length, 6);
    const withJson = results.filter((r) => r.json !== null);
    const failed = results.filter((r) => r.json === null);
    assert.ok(withJson.length >= 1 && failed.length >= 1, `${withJson.length} with json, ${failed.length} without`);
    for (const r of failed) {
      assert.equal((r.metadata as { json_error: { code: string } }).json_error.code, 'LLM_UNAVAILABLE');
      assert.match(String(r.markdown), /heaviest anvil/);
    }
  });

  it('never has more model requests in flight than LLM_CONCURRENCY', async () => {
    llm.reset();
    llm.setBehaviour(() => reply.slow(100, reply.json({ name: 'x' })));
    await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        t.request('POST', '/v1/scrape', {
          body: { url: `${site.url}/p/${i}`, formats: ['json'], json_options: { user_prompt: 'name' }, max_age: 0 },
        }),
      ),
    );
    assert.equal(llm.requests.length, 5);
    assert.ok(llm.maxInFlight <= 3, `max in flight ${llm.maxInFlight}`);
  });
});

describe('model settings', () => {
  it('needs LLM_BASE_URL and LLM_MODEL together, and never repeats the key or the URL in an error', () => {
    assert.throws(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }), /LLM_BASE_URL and LLM_MODEL/);
    assert.throws(() => loadConfig({ LLM_MODEL: 'llama3.1' }), /LLM_BASE_URL and LLM_MODEL/);
    assert.throws(
      () => loadConfig({ LLM_BASE_URL: 'ftp://user:secret@host/v1', LLM_MODEL: 'm' }),
      (error: Error) => /LLM_BASE_URL: must be a URL/.test(error.message) && !error.message.includes('secret'),
    );
    const config = loadConfig({
      LLM_BASE_URL: 'https://api.openai.com/v1/',
      LLM_MODEL: 'gpt-4o-mini',
      LLM_API_KEY: 'sk-abc',
      LLM_CONCURRENCY: '8',
    });
    assert.deepEqual(config.llm, {
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-abc',
      model: 'gpt-4o-mini',
      timeoutMs: 60_000,
      maxRetries: 2,
      concurrency: 8,
      maxInputChars: 100_000,
    });
    assert.equal(loadConfig({}).llm, undefined);
    assert.equal(loadConfig({}).structuredRequireModel, false);
  });
});
