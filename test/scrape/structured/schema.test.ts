// The client's JSON Schema: what is refused (with the fault's path) and what a compiled schema accepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkJsonSchema,
  describeErrors,
  heldSchemaCount,
  SCHEMA_LIMITS,
} from '../../../src/scrape/structured/schema.js';

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

  it('accepts the $schema of any draft and a root $id, and refuses $id and anchors inside', () => {
    const props = { a: { type: 'string' } };
    for (const $schema of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema']) {
      assert.ok(checkJsonSchema({ $schema, type: 'object', properties: props }).ok, $schema);
    }
    // The same root $id with two different schemas: neither is remembered under it.
    assert.ok(checkJsonSchema({ $id: 'https://example.com/s', type: 'object', properties: props }).ok);
    const second = checkJsonSchema({
      $id: 'https://example.com/s',
      type: 'object',
      properties: { b: { type: 'number' } },
    });
    assert.ok(second.ok);
    assert.equal(second.validate({ b: 'x' }), false);
    const nested = checkJsonSchema({
      type: 'object',
      properties: { a: { $id: 'https://example.com/a', type: 'string' } },
    });
    assert.equal(nested.ok, false);
    assert.ok(!nested.ok && nested.issues[0]?.path === 'properties.a.$id', JSON.stringify(nested));
    const anchor = checkJsonSchema({ type: 'object', $defs: { x: { $anchor: 'x', type: 'string' } } });
    assert.ok(!anchor.ok && anchor.issues[0]?.path === '$defs.x.$anchor', JSON.stringify(anchor));
    // A property may be called $id: it is a name there, not the keyword.
    assert.ok(checkJsonSchema({ type: 'object', properties: { $id: { type: 'string' } } }).ok);
  });

  it('keeps no client schema in the shared validator once compiled, and $refs still resolve', () => {
    const before = heldSchemaCount();
    for (let i = 0; i < 50; i++) {
      const check = checkJsonSchema({
        type: 'object',
        $defs: { n: { type: 'integer', maximum: i } },
        properties: { [`f${i}`]: { $ref: '#/$defs/n' } },
      });
      assert.ok(check.ok);
      assert.equal(check.validate({ [`f${i}`]: i }), true);
      assert.equal(check.validate({ [`f${i}`]: i + 1 }), false);
    }
    assert.equal(heldSchemaCount(), before);
  });
});
