// The model path when the endpoint misbehaves: rate limits, server errors, slowness, a closed port, a refused
// key; the process-wide bound on requests in flight; a caller that gives up.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createLlmExtractor, LlmError } from '../../../../src/scrape/structured/llm/index.js';
import { reply, startLlmServer, type LlmServer } from '../../../fixtures/llm-server.js';
import { PRODUCT, PRODUCT_PAGE, PRODUCT_SCHEMA, settingsFor } from './helpers.js';

let server: LlmServer;
before(async () => {
  server = await startLlmServer();
});
after(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const page = {
  content: PRODUCT_PAGE,
  contentKind: 'markdown' as const,
  url: 'https://shop.example/anvil',
  request: { schema: PRODUCT_SCHEMA },
};

async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => assert.fail('must not resolve'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof LlmError, `an LlmError, got ${String(error)}`);
  return error;
}

async function until(done: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('retries', () => {
  test('429 then an answer: waits for Retry-After, then succeeds', async () => {
    server.setBehaviour((_req, index) => (index === 0 ? reply.rateLimited('1') : reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const started = Date.now();
    const result = await extractor.extractJson(page);
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    assert.deepEqual(result.json, PRODUCT);
    assert.equal(server.requests.length, 2);
    assert.ok(waited >= 950 && Date.now() - started < 3_000, `waited ${waited} ms`);
  });

  test('429 every time: LLM_RATE_LIMITED after maxRetries + 1 requests', async () => {
    server.setBehaviour(() => reply.rateLimited('0'));
    const extractor = createLlmExtractor(settingsFor(server.url, { maxRetries: 2 }));
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_RATE_LIMITED');
    assert.equal(error.status, 429);
    assert.equal(server.requests.length, 3);
  });

  test('500 every time: LLM_UNAVAILABLE after maxRetries + 1 requests, nothing counted', async () => {
    server.setBehaviour(() => reply.serverError(10));
    const extractor = createLlmExtractor(settingsFor(server.url, { maxRetries: 2 }));
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_UNAVAILABLE');
    assert.deepEqual(error.usage, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    assert.equal(server.requests.length, 3);
  });

  test('500 without Retry-After: exponential backoff from 0.5 s', async () => {
    server.setBehaviour((_req, index) => (index === 0 ? reply.serverError() : reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url));
    await extractor.extractJson(page);
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    assert.ok(waited >= 370 && waited < 1_000, `waited ${waited} ms`);
  });
});

describe('timeouts and unreachable endpoints', () => {
  test('no answer: LLM_TIMEOUT after timeoutMs per request, each retried request bounded too', async () => {
    server.setBehaviour(() => ({ kind: 'hang' }));
    const extractor = createLlmExtractor(settingsFor(server.url, { timeoutMs: 200, maxRetries: 1 }));
    const started = Date.now();
    const error = await failureOf(extractor.extractJson(page));
    const took = Date.now() - started;
    assert.equal(error.code, 'LLM_TIMEOUT');
    assert.equal(server.requests.length, 2);
    // Two requests of 200 ms and one backoff of at most 500 ms.
    assert.ok(took >= 390 && took < 1_500, `took ${took} ms`);
    await until(() => server.inFlight === 0);
  });

  test('headers then a stalled body: also LLM_TIMEOUT (the client library alone would wait forever)', async () => {
    server.setBehaviour(() => ({ kind: 'stall-body' }));
    const extractor = createLlmExtractor(settingsFor(server.url, { timeoutMs: 200, maxRetries: 0 }));
    const started = Date.now();
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_TIMEOUT');
    assert.ok(Date.now() - started < 1_000);
  });

  test('a closed port: LLM_UNAVAILABLE', async () => {
    const gone = await startLlmServer();
    await gone.close();
    const extractor = createLlmExtractor(settingsFor(gone.url, { maxRetries: 1 }));
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_UNAVAILABLE');
    assert.match(error.message, /ECONNREFUSED/);
  });

  test('a connection dropped without an answer: LLM_UNAVAILABLE', async () => {
    server.setBehaviour(() => ({ kind: 'reset' }));
    const extractor = createLlmExtractor(settingsFor(server.url, { maxRetries: 0 }));
    assert.equal((await failureOf(extractor.extractJson(page))).code, 'LLM_UNAVAILABLE');
  });
});

describe('refusals', () => {
  test('401: LLM_ERROR at once, and the key appears nowhere in the error', async () => {
    const apiKey = 'sk-proj-VerySecretKey0123456789';
    server.setBehaviour(() => reply.status(401, `Incorrect API key provided: ${apiKey}. Find your key at ...`));
    const extractor = createLlmExtractor(settingsFor(server.url, { apiKey }));
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_ERROR');
    assert.equal(error.status, 401);
    assert.equal(server.requests.length, 1, 'not retried');
    const everything = `${error.message} ${error.stack ?? ''} ${JSON.stringify(error)}`;
    assert.ok(!everything.includes(apiKey));
    assert.ok(!everything.includes('VerySecret'));
    assert.match(error.message, /LLM_API_KEY/);
  });

  test('404 for a wrong model: LLM_ERROR with the endpoint wording, the ladder untouched', async () => {
    server.setBehaviour(() => reply.status(404, "The model 'gpt-nope' does not exist"));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_ERROR');
    assert.match(error.message, /gpt-nope/);
    assert.equal(server.requests.length, 1);
  });

  test('a 200 that is not a chat completion (a web page at the base URL): LLM_ERROR, not retried', async () => {
    server.setBehaviour(() => ({ kind: 'raw', status: 200, contentType: 'text/html', body: '<html>Web UI</html>' }));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const error = await failureOf(extractor.extractJson(page));
    assert.equal(error.code, 'LLM_ERROR');
    assert.match(error.message, /LLM_BASE_URL/);
    assert.equal(server.requests.length, 1);
  });
});

describe('concurrency', () => {
  test('concurrency 3, 10 pages: never more than 3 requests at the server', async () => {
    server.setBehaviour(() => reply.slow(60, reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url, { concurrency: 3 }));
    const pages = Array.from({ length: 10 }, () => extractor.extractJson(page));
    assert.deepEqual(extractor.load(), { waiting: 7, running: 3 });
    const results = await Promise.all(pages);
    assert.equal(results.length, 10);
    assert.equal(server.requests.length, 10);
    assert.equal(server.maxInFlight, 3);
    assert.deepEqual(extractor.load(), { waiting: 0, running: 0 });
  });
});

describe('a caller that gives up', () => {
  test('abort while waiting for a slot: AbortError, the waiter leaves the queue, nothing is sent', async () => {
    server.setBehaviour(() => reply.slow(300, reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url, { concurrency: 1 }));
    const busy = extractor.extractJson(page);
    const controller = new AbortController();
    const waiting = extractor.extractJson(page, controller.signal);
    assert.deepEqual(extractor.load(), { waiting: 1, running: 1 });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.deepEqual(extractor.load(), { waiting: 0, running: 1 });
    await busy;
    assert.equal(server.requests.length, 1);
  });

  test('abort while in flight: AbortError at once, the connection is given up', async () => {
    server.setBehaviour(() => reply.slow(5_000, reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const controller = new AbortController();
    const started = Date.now();
    const call = extractor.extractJson(page, controller.signal);
    await until(() => server.inFlight === 1);
    controller.abort();
    await assert.rejects(
      call,
      (e: unknown) => e instanceof Error && e.name === 'AbortError' && !(e instanceof LlmError),
    );
    assert.ok(Date.now() - started < 1_000);
    await until(() => server.inFlight === 0);
    assert.deepEqual(extractor.load(), { waiting: 0, running: 0 });
  });

  test('abort during a Retry-After wait: AbortError without waiting it out', async () => {
    server.setBehaviour(() => reply.rateLimited('20'));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const controller = new AbortController();
    const started = Date.now();
    const call = extractor.summarize(page, controller.signal);
    await until(() => server.requests.length === 1);
    controller.abort();
    await assert.rejects(call, { name: 'AbortError' });
    assert.ok(Date.now() - started < 1_000);
  });

  test('a signal already aborted: AbortError, nothing sent', async () => {
    const extractor = createLlmExtractor(settingsFor(server.url));
    await assert.rejects(extractor.extractJson(page, AbortSignal.abort()), { name: 'AbortError' });
    assert.equal(server.requests.length, 0);
  });
});
