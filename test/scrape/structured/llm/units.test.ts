// The model path's pure parts: the input budget, reading JSON out of answers, the summary bound, retry delays,
// redaction, the slot bound.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonAnswer, checkAnswer } from '../../../../src/scrape/structured/llm/answer.js';
import { retryDelayMs } from '../../../../src/scrape/structured/llm/backoff.js';
import { redact, retryAfterOf } from '../../../../src/scrape/structured/llm/call-failure.js';
import { cutToBudget } from '../../../../src/scrape/structured/llm/index.js';
import { schemaNameFor } from '../../../../src/scrape/structured/llm/response-format.js';
import { Semaphore } from '../../../../src/scrape/structured/llm/semaphore.js';
import { cleanSummary } from '../../../../src/scrape/structured/llm/summary-text.js';
import { checkJsonSchema } from '../../../../src/scrape/structured/schema.js';
import { PRODUCT_SCHEMA } from './helpers.js';

describe('cutToBudget', () => {
  test('content within the budget is kept whole', () => {
    assert.deepEqual(cutToBudget('short page', 100), { content: 'short page', truncated: false });
    assert.deepEqual(cutToBudget('x'.repeat(100), 100), { content: 'x'.repeat(100), truncated: false });
  });

  test('cuts at the last blank line before the budget', () => {
    const text = `${'a'.repeat(60)}\n\n${'b'.repeat(30)}\n\n${'c'.repeat(50)}`;
    const cut = cutToBudget(text, 110);
    assert.equal(cut.truncated, true);
    assert.equal(cut.content, `${'a'.repeat(60)}\n\n${'b'.repeat(30)}`);
  });

  test('a blank line with spaces in it counts as a paragraph boundary', () => {
    const text = `${'a'.repeat(70)}\n  \n${'b'.repeat(70)}`;
    assert.equal(cutToBudget(text, 100).content, 'a'.repeat(70));
  });

  test('without a paragraph boundary, cuts at the last line break', () => {
    const text = `${'a'.repeat(60)}\n${'b'.repeat(20)}\n${'c'.repeat(50)}`;
    assert.deepEqual(cutToBudget(text, 100), { content: `${'a'.repeat(60)}\n${'b'.repeat(20)}`, truncated: true });
  });

  test('without any break, cuts at the budget', () => {
    assert.deepEqual(cutToBudget('z'.repeat(500), 120), { content: 'z'.repeat(120), truncated: true });
  });

  test('a boundary in the first half of the budget is ignored (it would waste the budget)', () => {
    const text = `intro\n\n${'w'.repeat(500)}`;
    assert.deepEqual(cutToBudget(text, 200), { content: text.slice(0, 200), truncated: true });
  });

  test('never splits a surrogate pair', () => {
    const text = 'a'.repeat(9) + '😀' + 'b'.repeat(10);
    const cut = cutToBudget(text, 10);
    assert.equal(cut.content, 'a'.repeat(9));
  });
});

describe('reading the answer', () => {
  test('plain JSON, fenced JSON, JSON after prose, reasoning block first', () => {
    assert.deepEqual(parseJsonAnswer('{"a":1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonAnswer('```json\n{"a":2}\n```'), { ok: true, value: { a: 2 } });
    assert.deepEqual(parseJsonAnswer('Sure! Here it is: {"a":"}{"} hope that helps {x}'), {
      ok: true,
      value: { a: '}{' },
    });
    assert.deepEqual(parseJsonAnswer('<think>maybe {"a":0}</think>\n{"a":3}'), { ok: true, value: { a: 3 } });
    assert.deepEqual(parseJsonAnswer('no json here'), { ok: false });
  });

  test('an array, a string or a schema mismatch is not a usable answer', () => {
    const checked = checkJsonSchema(PRODUCT_SCHEMA);
    assert.ok(checked.ok);
    assert.equal(checkAnswer('[1,2]', undefined).ok, false);
    assert.equal(checkAnswer('"text"', undefined).ok, false);
    const mismatch = checkAnswer('{"name":5}', checked.validate);
    assert.equal(mismatch.ok, false);
    assert.match(!mismatch.ok ? mismatch.problem : '', /schema: .*name must be string/);
    assert.deepEqual(checkAnswer('{"name":"x","price":null}', checked.validate), {
      ok: true,
      json: { name: 'x', price: null },
    });
  });
});

describe('summary text', () => {
  test('trimmed, unfenced, unquoted', () => {
    assert.equal(cleanSummary('  "A short summary."  ', 100), 'A short summary.');
    assert.equal(cleanSummary('<think>hmm</think> Ein Satz.', 100), 'Ein Satz.');
  });

  test('too long: cut after the last whole sentence within the bound', () => {
    const text = 'First sentence here. Second sentence is here. Third one runs on and on.';
    assert.equal(cleanSummary(text, 50), 'First sentence here. Second sentence is here.');
    const words = 'word '.repeat(40).trim();
    const cut = cleanSummary(words, 50);
    assert.ok(cut.length <= 50 && cut.endsWith('…'), cut);
  });
});

describe('retries and messages', () => {
  test('Retry-After is honoured up to 30 s; without it the backoff doubles from 0.5 s, at most 8 s', () => {
    assert.equal(retryDelayMs(0, 1_000), 1_000);
    assert.equal(retryDelayMs(0, 3_600_000), 30_000);
    assert.equal(
      retryDelayMs(0, undefined, () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(1, undefined, () => 0),
      1_000,
    );
    assert.equal(
      retryDelayMs(10, undefined, () => 0),
      8_000,
    );
    assert.equal(
      retryDelayMs(0, undefined, () => 1),
      375,
    );
  });

  test('Retry-After as seconds, as a date, and retry-after-ms', () => {
    assert.equal(retryAfterOf(new Headers({ 'retry-after': '2' })), 2_000);
    assert.equal(retryAfterOf(new Headers({ 'retry-after-ms': '150' })), 150);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = retryAfterOf(new Headers({ 'retry-after': inTenSeconds }));
    assert.ok(fromDate !== undefined && fromDate > 8_000 && fromDate <= 10_000, String(fromDate));
    assert.equal(retryAfterOf(new Headers({ 'retry-after': 'soon' })), undefined);
  });

  test('the key and key-like tokens never reach a message', () => {
    const key = 'sk-secret-abcdef123456';
    assert.equal(redact(`bad key ${key} given`, key), 'bad key [redacted] given');
    assert.equal(
      redact('Incorrect API key provided: sk-abc***xyz.', undefined),
      'Incorrect API key provided: [redacted].',
    );
  });

  test('schema names are made acceptable to OpenAI', () => {
    assert.equal(schemaNameFor('Product details!'), 'Product_details_');
    assert.equal(schemaNameFor(undefined), 'page');
    assert.equal(schemaNameFor('***'), 'page');
    assert.equal(schemaNameFor('x'.repeat(80)).length, 64);
  });
});

describe('Semaphore', () => {
  test('hands slots out in order, and a waiter whose signal aborts leaves the queue', async () => {
    const slots = new Semaphore(1);
    const first = await slots.acquire();
    const controller = new AbortController();
    const aborted = slots.acquire(controller.signal);
    const third = slots.acquire();
    assert.deepEqual(slots.load(), { waiting: 2, running: 1 });
    controller.abort();
    await assert.rejects(aborted, { name: 'AbortError' });
    assert.deepEqual(slots.load(), { waiting: 1, running: 1 });
    first();
    first(); // A second release of the same slot changes nothing.
    const release = await third;
    assert.deepEqual(slots.load(), { waiting: 0, running: 1 });
    release();
    assert.deepEqual(slots.load(), { waiting: 0, running: 0 });
  });
});
