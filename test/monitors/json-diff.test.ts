// The structured diff of price monitors: amounts as written, deltas and currencies, the kind of change, bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyJsonChange,
  diffJson,
  JSON_DIFF_LIMITS,
  largestPriceMovePct,
  parseAmount,
} from '../../src/monitors/json-diff.js';

describe('amounts', () => {
  it('reads prices as shops write them', () => {
    assert.deepEqual(parseAmount(149.99), { amount: 149.99 });
    assert.deepEqual(parseAmount('€1.199,00'), { amount: 1199, currency: 'EUR' });
    assert.deepEqual(parseAmount('$1,199.50'), { amount: 1199.5, currency: 'USD' });
    assert.deepEqual(parseAmount('12,50 EUR'), { amount: 12.5, currency: 'EUR' });
    assert.deepEqual(parseAmount('1,000'), { amount: 1000 });
    assert.deepEqual(parseAmount('£ 9'), { amount: 9, currency: 'GBP' });
    assert.equal(parseAmount('sold out'), undefined);
    assert.equal(parseAmount({ price: 1 }), undefined);
  });
});

describe('diffJson', () => {
  it('gives the leaves that changed with delta and the sibling currency', () => {
    const entries = diffJson(
      { price: 100, currency: 'EUR', name: 'Anvil' },
      { price: 89.5, currency: 'EUR', name: 'Anvil' },
    );
    assert.deepEqual(entries, [{ path: 'price', from: 100, to: 89.5, currency: 'EUR', delta: -10.5 }]);
    assert.equal(classifyJsonChange(entries), 'price_down');
    assert.equal(largestPriceMovePct(entries), 10.5);
  });

  it('sees no change in the same amount written differently, and none in equal objects', () => {
    assert.deepEqual(diffJson({ price: '149.99' }, { price: 149.99 }), []);
    assert.deepEqual(diffJson({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), []);
  });

  it('reports a currency switch without a delta, stock, added and removed fields', () => {
    const [switched] = diffJson({ price: '€10' }, { price: '$10' });
    assert.equal(switched?.fromCurrency, 'EUR');
    assert.equal(switched?.currency, 'USD');
    assert.equal(switched?.delta, undefined);
    const stock = diffJson({ offers: [{ availability: 'InStock' }] }, { offers: [{ availability: 'OutOfStock' }] });
    assert.equal(stock[0]?.path, 'offers[0].availability');
    assert.equal(classifyJsonChange(stock), 'stock');
    const shape = diffJson({ a: 1 }, { b: 1 });
    assert.deepEqual(shape, [
      { path: 'a', from: 1 },
      { path: 'b', to: 1 },
    ]);
    assert.equal(classifyJsonChange(shape), 'content');
  });

  it('bounds what it walks and keeps', () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    const entries = diffJson({}, wide);
    assert.equal(entries.length, JSON_DIFF_LIMITS.maxEntries);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = { d: deep };
    assert.ok(diffJson({}, deep).length === 1);
    const [long] = diffJson({ text: 'a' }, { text: 'x'.repeat(10_000) });
    assert.ok(String(long?.to).length <= JSON_DIFF_LIMITS.maxValueChars + 1);
  });
});
