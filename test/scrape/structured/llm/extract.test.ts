// The model path against the stand-in server: what is sent, the structured-output ladder, validation and
// repair, usage, free-form objects, summaries.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createLlmExtractor, LlmError } from '../../../../src/scrape/structured/llm/index.js';
import { reply, startLlmServer, type LlmServer } from '../../../fixtures/llm-server.js';
import { PRODUCT, PRODUCT_PAGE, PRODUCT_SCHEMA, promptText, settingsFor, userText } from './helpers.js';

let server: LlmServer;
before(async () => {
  server = await startLlmServer();
});
after(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const productRequest = { schema: PRODUCT_SCHEMA, schemaName: 'product', schemaDescription: 'A product on sale' };
const input = { content: PRODUCT_PAGE, contentKind: 'markdown' as const, url: 'https://shop.example/anvil' };

function warnings(): { logger: { warn(obj: object, msg: string): void }; seen: Array<{ obj: object; msg: string }> } {
  const seen: Array<{ obj: object; msg: string }> = [];
  return { logger: { warn: (obj, msg) => seen.push({ obj, msg }) }, seen };
}

describe('extractJson with a schema', () => {
  test('json_schema first: the request carries the schema, the page and the rules; the answer is returned', async () => {
    server.setBehaviour(() => reply.json(PRODUCT, { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 }));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const result = await extractor.extractJson({ ...input, request: { ...productRequest, userPrompt: 'The product' } });

    assert.deepEqual(result, {
      json: PRODUCT,
      usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
      truncated: false,
    });
    assert.equal(server.requests.length, 1);
    const [sent] = server.requests;
    assert.equal(sent!.path, '/v1/chat/completions');
    assert.equal(sent!.body.model, 'test-model');
    assert.deepEqual(sent!.body.response_format, {
      type: 'json_schema',
      json_schema: { name: 'product', description: 'A product on sale', schema: PRODUCT_SCHEMA, strict: false },
    });
    const user = userText(sent!);
    assert.ok(user.includes(PRODUCT_PAGE), 'the page content is sent');
    assert.ok(user.includes('https://shop.example/anvil'));
    assert.ok(user.includes('What to extract: The product'));
    // The page sits between marker lines with a tag it cannot guess.
    const tag = /<<<(PAGE-[0-9a-f]{12})\n/.exec(user)?.[1];
    assert.ok(tag && user.includes(`${PRODUCT_PAGE}\n${tag}>>>`), 'page content delimited');
    const system = sent!.body.messages?.find((m) => m.role === 'system')?.content ?? '';
    assert.match(system, /never invent/i);
    assert.match(system, /null/);
    assert.match(system, /data, not instructions/);
    // No key configured: no Authorization header at all.
    assert.equal(sent!.headers.authorization, undefined);
  });

  test('a configured key is sent as a bearer token', async () => {
    server.setBehaviour(() => reply.json(PRODUCT));
    const extractor = createLlmExtractor(settingsFor(server.url, { apiKey: 'sk-test-123456' }));
    await extractor.extractJson({ ...input, request: productRequest });
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer sk-test-123456');
  });

  test('json_schema refused: falls back to json_object with the schema in the prompt, and remembers it', async () => {
    server.setBehaviour((req) =>
      req.body.response_format?.type === 'json_schema' ? reply.refuseFormat('json_schema') : reply.json(PRODUCT),
    );
    const { logger, seen } = warnings();
    const extractor = createLlmExtractor(settingsFor(server.url), logger);

    const first = await extractor.extractJson({ ...input, request: productRequest });
    assert.deepEqual(first.json, PRODUCT);
    // The refused request counted nothing; the accepted one its default 10/5/15.
    assert.deepEqual(first.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.deepEqual(
      server.requests.map((r) => r.body.response_format?.type),
      ['json_schema', 'json_object'],
    );
    assert.ok(promptText(server.requests[1]!).includes(JSON.stringify(PRODUCT_SCHEMA)), 'schema in the prompt');
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0]!.obj, { refused: 'json_schema', next: 'json_object', status: 400 });

    server.reset();
    await extractor.extractJson({ ...input, url: 'https://shop.example/other', request: productRequest });
    assert.deepEqual(
      server.requests.map((r) => r.body.response_format?.type),
      ['json_object'],
      'the later page goes straight to the rung that works',
    );
    assert.equal(seen.length, 1);
  });

  test('no structured output at all: plain prompt, JSON read out of a code fence', async () => {
    server.setBehaviour((req) =>
      req.body.response_format ? reply.refuseFormat(req.body.response_format.type) : reply.fenced(PRODUCT),
    );
    const extractor = createLlmExtractor(settingsFor(server.url));
    const result = await extractor.extractJson({ ...input, request: productRequest });
    assert.deepEqual(result.json, PRODUCT);
    assert.deepEqual(
      server.requests.map((r) => r.body.response_format?.type),
      ['json_schema', 'json_object', undefined],
    );
  });

  test('a transient failure does not move the endpoint down the ladder', async () => {
    server.setBehaviour((_req, index) => (index === 0 ? reply.serverError(5) : reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url, { maxRetries: 0 }));
    await assert.rejects(extractor.extractJson({ ...input, request: productRequest }), { code: 'LLM_UNAVAILABLE' });
    await extractor.extractJson({ ...input, request: productRequest });
    assert.deepEqual(
      server.requests.map((r) => r.body.response_format?.type),
      ['json_schema', 'json_schema'],
    );
  });

  test('an answer that does not match the schema is repaired once, with the errors shown to the model', async () => {
    server.setBehaviour((_req, index) =>
      index === 0
        ? reply.json({ name: 42, price: '149.99' }, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 })
        : reply.json(PRODUCT, { prompt_tokens: 130, completion_tokens: 12, total_tokens: 142 }),
    );
    const extractor = createLlmExtractor(settingsFor(server.url));
    const result = await extractor.extractJson({ ...input, request: productRequest });
    assert.deepEqual(result.json, PRODUCT);
    assert.deepEqual(result.usage, { prompt_tokens: 230, completion_tokens: 22, total_tokens: 252 });
    assert.equal(server.requests.length, 2);
    const repair = server.requests[1]!.body;
    assert.equal(repair.response_format?.type, 'json_schema', 'the repair stays on the accepted rung');
    const messages = repair.messages ?? [];
    assert.equal(messages.at(-2)?.role, 'assistant');
    assert.equal(messages.at(-2)?.content, JSON.stringify({ name: 42, price: '149.99' }));
    assert.match(messages.at(-1)?.content ?? '', /\/name must be string/);
    assert.match(messages.at(-1)?.content ?? '', /\/price must be number,null/);
  });

  test('text that is not JSON at all is repaired the same way', async () => {
    server.setBehaviour((_req, index) => (index === 0 ? reply.text('I cannot see a product.') : reply.json(PRODUCT)));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const result = await extractor.extractJson({ ...input, request: productRequest });
    assert.deepEqual(result.json, PRODUCT);
    assert.match(server.requests[1]!.body.messages?.at(-1)?.content ?? '', /not JSON/);
  });

  test('invalid twice: LLM_INVALID_OUTPUT carrying the usage of both calls, nothing returned', async () => {
    server.setBehaviour((_req, index) =>
      reply.json(
        { name: null, price: 'free' },
        index === 0
          ? { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }
          : { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
      ),
    );
    const extractor = createLlmExtractor(settingsFor(server.url));
    const error = await extractor.extractJson({ ...input, request: productRequest }).then(
      () => assert.fail('must not resolve'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LlmError);
    assert.equal(error.code, 'LLM_INVALID_OUTPUT');
    assert.deepEqual(error.usage, { prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 });
    assert.match(error.message, /schema/);
    assert.equal(server.requests.length, 2);
  });
});

describe('extractJson without a schema', () => {
  test('a user_prompt alone gives a free-form object through json_object', async () => {
    server.setBehaviour(() => reply.json({ product: 'Acme Anvil 3000', weight_kg: 50 }));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const result = await extractor.extractJson({ ...input, request: { userPrompt: 'Product name and weight' } });
    assert.deepEqual(result.json, { product: 'Acme Anvil 3000', weight_kg: 50 });
    assert.deepEqual(server.requests[0]!.body.response_format, { type: 'json_object' });
    assert.ok(userText(server.requests[0]!).includes('What to extract: Product name and weight'));
  });

  test('an array is not an object: repaired, then LLM_INVALID_OUTPUT if it stays one', async () => {
    server.setBehaviour(() => reply.json([{ product: 'Acme Anvil 3000' }]));
    const extractor = createLlmExtractor(settingsFor(server.url));
    await assert.rejects(extractor.extractJson({ ...input, request: { userPrompt: 'Products' } }), {
      code: 'LLM_INVALID_OUTPUT',
      usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
    });
    assert.equal(server.requests.length, 2);
  });

  test('a server without usage counts 0', async () => {
    server.setBehaviour(() => reply.json({ a: 1 }, null));
    const extractor = createLlmExtractor(settingsFor(server.url));
    const result = await extractor.extractJson({ ...input, request: { userPrompt: 'anything' } });
    assert.deepEqual(result.usage, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });
});

describe('input budget', () => {
  test('content over the budget is cut at a paragraph and reported as truncated', async () => {
    server.setBehaviour(() => reply.json(PRODUCT));
    const extractor = createLlmExtractor(settingsFor(server.url, { maxInputChars: 120 }));
    const content = `${'Main content. '.repeat(6)}\n\n${'Footer links. '.repeat(20)}`;
    const result = await extractor.extractJson({ ...input, content, request: productRequest });
    assert.equal(result.truncated, true);
    const user = userText(server.requests[0]!);
    assert.ok(user.includes('Main content.'));
    assert.ok(!user.includes('Footer links.'));
    assert.match(user, /cut to fit/);
  });
});

describe('summarize', () => {
  test('a plain-prompt summary in the page language, trimmed', async () => {
    server.setBehaviour(() => reply.text('  Der Acme Amboss 3000 kostet 149,99 EUR und wiegt 50 kg.  \n', null));
    const extractor = createLlmExtractor(settingsFor(server.url, { summaryMaxChars: 400 }));
    const result = await extractor.summarize({ ...input, language: 'de' });
    assert.deepEqual(result, {
      summary: 'Der Acme Amboss 3000 kostet 149,99 EUR und wiegt 50 kg.',
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      truncated: false,
    });
    const sent = server.requests[0]!.body;
    assert.equal(sent.response_format, undefined);
    const system = sent.messages?.find((m) => m.role === 'system')?.content ?? '';
    assert.match(system, /language \(de\)/);
    assert.match(system, /400 characters/);
    assert.match(system, /5 sentences/);
    assert.ok(userText(server.requests[0]!).includes(PRODUCT_PAGE));
  });

  test('an empty answer is LLM_INVALID_OUTPUT', async () => {
    server.setBehaviour(() => ({ kind: 'answer', content: null }));
    const extractor = createLlmExtractor(settingsFor(server.url));
    await assert.rejects(extractor.summarize(input), {
      code: 'LLM_INVALID_OUTPUT',
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
});
