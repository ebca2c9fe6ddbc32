// The bounded least-recently-used cache: it keeps at most its capacity, and drops the entry used longest ago.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LruCache } from '../../src/util/lru.js';

const keys = <V>(cache: LruCache<string, V>, candidates: string[]): string[] =>
  candidates.filter((k) => cache.get(k) !== undefined);

it('keeps at most its capacity, dropping the oldest entry first', () => {
  const cache = new LruCache<string, number>(3);
  for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) cache.set(k, i);
  assert.equal(cache.size, 3);
  assert.equal(cache.get('a'), undefined);
  assert.deepEqual([cache.get('b'), cache.get('c'), cache.get('d')], [1, 2, 3]);
});

it('a get makes an entry the most recently used: the next one past the capacity drops another', () => {
  const cache = new LruCache<string, number>(3);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal(cache.get('a'), 1);
  cache.set('d', 4);
  assert.equal(cache.size, 3);
  assert.deepEqual(keys(cache, ['a', 'b', 'c', 'd']), ['a', 'c', 'd']);
});

it('setting a key again replaces its value, makes it the most recently used and does not grow the cache', () => {
  const cache = new LruCache<string, string>(2);
  cache.set('a', 'first');
  cache.set('b', 'b');
  cache.set('a', 'second');
  assert.equal(cache.size, 2);
  cache.set('c', 'c');
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 'second');
  assert.equal(cache.get('c'), 'c');
});

it('a missing key is undefined and changes nothing', () => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.get('zzz'), undefined);
  cache.set('c', 3);
  assert.deepEqual(keys(cache, ['a', 'b', 'c']), ['b', 'c']);
});

it('a busy cache keeps its recently used entries whatever passes through (no wholesale clear)', () => {
  const cache = new LruCache<number, number>(100);
  for (let i = 0; i < 10_000; i++) {
    cache.set(i, i);
    // Entry 0 is used all along, so it stays while thousands of others come and go.
    assert.equal(cache.get(0), 0);
    assert.ok(cache.size <= 100);
  }
  assert.equal(cache.size, 100);
  assert.equal(cache.get(9_999), 9_999);
  assert.equal(cache.get(1), undefined);
});

it('refuses a capacity that is not a positive integer', () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => new LruCache(bad), RangeError);
});
