// The client's JSON Schema: what is refused (with the fault's path) and what a compiled schema accepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkJsonSchema, describeErrors, SCHEMA_LIMITS } from '../../../src/scrape/structured/schema.js';

describe('checkJsonSchema', () => {
  it('compiles an ordinary schema, draft-07 definitions and refs included, and validates with it', () => {
    const check = checkJsonSchema({
      type: 'object',
      definitions: { money: { type: 'number', minimum: 0 } },
      properties: { price: { $ref: '#/definitions/money' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['price'],
    });
    assert.ok(check.ok);
    assert.equal(check.validate({ price: 3, tags: ['a'] }), true);
    assert.equal(check.validate({ price: -1 }), false);
    assert.match(describeErrors(check.validate.errors), /\/price must be >= 0/);
  });

  it('gives the path of the fault inside the schema', () => {
    const check = checkJsonSchema({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { minLength: -1 } } } },
    });
    assert.equal(check.ok, false);
    assert.ok(
      !check.ok && check.issues.some((i) => i.path === 'properties.a.properties.b.minLength'),
      JSON.stringify(check),
    );
  });

  it('refuses a schema of something other than an object, a remote $ref, and patterns without a linear-time match', () => {
    for (const schema of [
      { type: 'array' },
      { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } },
      { type: 'object', properties: { a: { type: 'string', pattern: '(x)\\1' } } },
      { type: 'object', patternProperties: { '(?<=a)b': { type: 'string' } } },
    ]) {
      assert.equal(checkJsonSchema(schema).ok, false, JSON.stringify(schema));
    }
  });

  it('refuses schemas over the size and depth bounds', () => {
    const big = { type: 'object', description: 'x'.repeat(SCHEMA_LIMITS.maxBytes) };
    assert.match(JSON.stringify(checkJsonSchema(big)), /at most 32768 bytes/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < SCHEMA_LIMITS.maxDepth; i++) deep = { type: 'object', properties: { x: deep } };
    assert.match(JSON.stringify(checkJsonSchema(deep)), /16 deep/);
  });

  it('runs a pattern that makes a backtracking engine explode on the linear matcher', () => {
    // V8 would take longer than the test runner waits on 50,000 a's and a '!' against ^(a+)+$.
    const check = checkJsonSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    assert.ok(check.ok);
    assert.equal(check.validate({ s: `${'a'.repeat(50_000)}!` }), false);
    assert.equal(check.validate({ s: 'aaaa' }), true);
    // Each schema's patterns are its own (Ajv caches compiled patterns by their text).
    const other = checkJsonSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^b$' } } });
    assert.ok(other.ok);
    assert.equal(other.validate({ s: 'b' }), true);
    assert.equal(other.validate({ s: 'aaaa' }), false);
  });
});
