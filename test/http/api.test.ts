// The HTTP layer as clients see it: auth, error shapes for every failure class, docs and health.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_KEY, type TestApp, startTestApp } from '../helpers/test-app.js';

describe('HTTP layer', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('answers /health without a key', async () => {
    const res = await t.request('GET', '/health', { key: null });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { success: true, status: 'ok' });
  });

  it('refuses /v1 routes without a valid key with the 401 shape', async () => {
    for (const key of [null, 'wrong-key', '']) {
      const res = await t.request('POST', '/v1/scrape', { key, body: { url: 'https://example.com' } });
      assert.equal(res.statusCode, 401, `key ${String(key)}`);
      assert.deepEqual(res.json(), { success: false, error: 'Invalid API key' });
    }
    const res = await t.request('GET', '/v1/webhook-events', {
      key: null,
      headers: { authorization: `Basic ${TEST_KEY}` },
    });
    assert.equal(res.statusCode, 401);
  });

  it('answers unknown routes with a JSON 404 and wrong methods with a JSON 405', async () => {
    const missing = await t.request('GET', '/v1/nothing-here');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().success, false);
    assert.equal(missing.json().error, 'Not found');
    const wrong = await t.request('GET', '/v1/scrape');
    assert.equal(wrong.statusCode, 405);
    assert.equal(wrong.headers.allow, 'POST');
    assert.deepEqual(Object.keys(wrong.json()).sort(), ['error', 'message', 'success']);
    assert.equal(wrong.json().error, 'Method not allowed');
  });

  it('answers malformed JSON with the validation shape', async () => {
    const res = await t.request('POST', '/v1/scrape', {
      body: '{"url": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.success, false);
    assert.equal(body.error, 'Validation error');
    assert.equal(body.data.type, 'validation_error');
    assert.equal(body.data.status, 'failed');
    assert.equal(body.data.issues[0].code, 'invalid_json');
  });

  it('answers 413 for a body over the limit and 415 for a non-JSON body', async () => {
    const big = await t.request('POST', '/v1/scrape', {
      body: { url: 'https://example.com', pad: 'x'.repeat(1_100_000) },
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().success, false);
    const text = await t.request('POST', '/v1/scrape', {
      body: 'url=https://example.com',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.statusCode, 415);
    assert.equal(text.json().error, 'Unsupported media type');
  });

  it('rejects unknown fields, bad enums, missing and mistyped fields with field paths and codes', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ url: 'https://example.com', formatz: ['markdown'] }, 'formatz', 'unrecognized_keys'],
      [{ url: 'https://example.com', engine: 'bogus' }, 'engine', 'invalid_enum_value'],
      [{ url: 'https://example.com', formats: ['markdown', 'bogus'] }, 'formats.1', 'invalid_enum_value'],
      [{}, 'url', 'invalid_type'],
      [{ url: 42 }, 'url', 'invalid_type'],
      [{ url: 'ftp://example.com/file' }, 'url', 'custom'],
      [{ url: 'https://example.com', timeout: -5 }, 'timeout', 'too_small'],
      [{ url: 'https://example.com', timeout: 10_000_000 }, 'timeout', 'too_big'],
      [{ url: 'https://example.com', only_main_content: 'yes' }, 'only_main_content', 'invalid_type'],
      [{ url: 'https://example.com', include_tags: ['div[[['] }, 'include_tags.0', 'custom'],
      [
        { url: 'https://example.com', wait_for_selector: { selector: '#a', state: 'gone' } },
        'wait_for_selector',
        'invalid_union',
      ],
      [{ url: 'https://example.com', wait_for_selector: 'div[[[' }, 'wait_for_selector', 'custom'],
      [
        { url: 'https://example.com', wait_for_selector: ['#ok', { selector: 'p:::x' }] },
        'wait_for_selector.1.selector',
        'custom',
      ],
      [{ url: 'https://example.com', formats: ['markdown', 'markdown'] }, 'formats', 'custom'],
      [{ url: 'https://example.com', proxy: 'not a url' }, 'proxy', 'custom'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.request('POST', '/v1/scrape', { body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      const json = res.json();
      assert.equal(json.error, 'Validation error');
      assert.ok(
        json.data.issues.some((i: { field: string; code: string }) => i.field === field && i.code === code),
        `${JSON.stringify(body)} -> ${JSON.stringify(json.data.issues)}`,
      );
    }
    const missing = await t.request('POST', '/v1/scrape', { body: {} });
    assert.equal(missing.json().data.issues[0].message, 'Required');
  });

  it('refuses browser options with a 400 that says how to install Chromium when it is not installed', async () => {
    const bare = await startTestApp({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } });
    try {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ formats: ['markdown', 'screenshot'] }, 'formats.1'],
        [{ formats: ['screenshot@fullPage'] }, 'formats.0'],
        [{ engine: 'playwright' }, 'engine'],
        [{ engine: 'puppeteer' }, 'engine'],
        [{ wait_for: 500 }, 'wait_for'],
        [{ wait_until: 'networkidle' }, 'wait_until'],
        [{ wait_for_selector: '#app' }, 'wait_for_selector'],
      ];
      for (const [extra, field] of cases) {
        const res = await bare.request('POST', '/v1/scrape', { body: { url: 'http://127.0.0.1:9/', ...extra } });
        assert.equal(res.statusCode, 400, JSON.stringify(extra));
        const issue = res.json().data.issues.find((i: { field: string }) => i.field === field);
        assert.ok(issue, `${JSON.stringify(extra)} -> ${res.body}`);
        assert.equal(issue.code, 'custom');
        assert.match(issue.message, /browser engine.*apt-get install -y chromium.*CHROMIUM_PATH/);
      }
      // The plain HTTP engine still works without a browser.
      const plain = await bare.request('POST', '/v1/scrape', {
        body: { url: 'http://127.0.0.1:9/', engine: 'cheerio' },
      });
      assert.notEqual(plain.statusCode, 400, plain.body);
    } finally {
      await bare.close();
    }
  });

  it('refuses browser-only options on the cheerio engine, naming the engines that can honour them', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ formats: ['screenshot'] }, 'formats.0'],
      [{ wait_for: 500 }, 'wait_for'],
      [{ wait_for_selector: { selector: '#app', state: 'attached' } }, 'wait_for_selector'],
    ];
    for (const [extra, field] of cases) {
      const res = await t.request('POST', '/v1/scrape', {
        body: { url: 'http://127.0.0.1:9/', engine: 'cheerio', ...extra },
      });
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
      const issue = res.json().data.issues.find((i: { field: string }) => i.field === field);
      assert.ok(issue, `${JSON.stringify(extra)} -> ${res.body}`);
      assert.match(issue.message, /use engine 'auto', 'playwright' or 'puppeteer'/);
    }
  });

  it('refuses options that need capabilities not built yet, or each other, with a 400 that says what is missing', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ formats: ['json'] }, 'json_options', /Format 'json' needs json_options/],
      [{ json_options: { user_prompt: 'x' } }, 'json_options', /add 'json' to formats/],
    ];
    for (const [extra, field, message] of cases) {
      const res = await t.request('POST', '/v1/scrape', { body: { url: 'http://127.0.0.1:9/', ...extra } });
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
      const issue = res.json().data.issues.find((i: { field: string }) => i.field === field);
      assert.ok(issue, `${JSON.stringify(extra)} -> ${res.body}`);
      assert.equal(issue.code, 'custom');
      assert.match(issue.message, message);
    }
  });

  it('serves an OpenAPI 3 document built from the request schemas, and a docs page', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.match(doc.openapi, /^3\./);
    const op = doc.paths['/v1/scrape'].post;
    const schema = op.requestBody.content['application/json'].schema;
    const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
    assert.ok(resolved.properties.url);
    assert.deepEqual(resolved.required, ['url']);
    assert.ok(resolved.properties.engine.enum.includes('cheerio'));
    assert.equal(resolved.additionalProperties, false);
    const docs = await t.app.server.inject({ method: 'GET', url: '/docs' });
    const page =
      docs.statusCode === 302
        ? await t.app.server.inject({ method: 'GET', url: docs.headers.location as string })
        : docs;
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
  });

  it('echoes a sane client request id and makes one otherwise', async () => {
    const given = await t.request('GET', '/health', { key: null, headers: { 'x-request-id': 'trace-123' } });
    assert.equal(given.headers['x-request-id'], 'trace-123');
    const made = await t.request('GET', '/health', { key: null, headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });
});
