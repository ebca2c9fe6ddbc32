import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, markdownToPlainText, pageCounts, pageScore, shingles, tokenize } from '../../bench/lib/score.js';

test('tokenize keeps Unicode word runs and underscores, drops punctuation', () => {
  assert.deepEqual(tokenize('Héllo, wörld! snake_case 42 — 日本'), ['Héllo', 'wörld', 'snake_case', '42', '日本']);
  assert.deepEqual(tokenize(''), []);
});

test('shingles are a multiset of 4-token runs', () => {
  const s = shingles('a b c d a b c d');
  // a b c d | b c d a | c d a b | d a b c | a b c d
  assert.equal(s.size, 4);
  assert.equal(s.get(['a', 'b', 'c', 'd'].join('\u0001')), 2);
  assert.equal(shingles('a b c').size, 0);
});

test('pageCounts: identical texts are all tp', () => {
  assert.deepEqual(pageCounts('one two three four five', 'one two three four five'), { tp: 2, fp: 0, fn: 0 });
});

test('pageCounts: extra and missing shingles', () => {
  // predicted shingles [1234][2345][3456]; truth shingles [1234][2345][3459].
  const c = pageCounts('1 2 3 4 5 6', '1 2 3 4 5 9');
  assert.deepEqual(c, { tp: 2, fp: 1, fn: 1 });
  const s = pageScore(c);
  assert.equal(s.precision, 2 / 3);
  assert.equal(s.recall, 2 / 3);
});

test('pageCounts: multiset counts use the min of both counts', () => {
  // predicted has "a b c d" twice, truth once.
  const c = pageCounts('a b c d x a b c d', 'a b c d');
  // predicted shingles: abcd, bcdx, cdxa, dxab, xabc, abcd -> abcd x2 + 4 others
  assert.deepEqual(c, { tp: 1, fp: 5, fn: 0 });
});

test('a page with nothing on either side counts 1; one empty side counts 0', () => {
  assert.deepEqual(pageScore({ tp: 0, fp: 0, fn: 0 }), { precision: 1, recall: 1, f1: 1 });
  const onlyTruth = pageScore(pageCounts('', 'a b c d e'));
  assert.equal(onlyTruth.recall, 0);
  assert.equal(onlyTruth.precision, 1);
});

test('aggregate is F1 of mean precision and mean recall, with per-page normalization', () => {
  // Page 1: P=1, R=0.5 (tp 1, fn 1). Page 2: P=0.5, R=1 (tp 10, fp 10): lengths do not weigh.
  const agg = aggregate([
    { tp: 1, fp: 0, fn: 1 },
    { tp: 10, fp: 10, fn: 0 },
  ]);
  assert.equal(agg.precision, 0.75);
  assert.equal(agg.recall, 0.75);
  assert.equal(agg.f1, 0.75);
  const skew = aggregate([{ tp: 1, fp: 0, fn: 3 }]);
  assert.equal(skew.precision, 1);
  assert.equal(skew.recall, 0.25);
  assert.equal(skew.f1, 0.4);
});

test('markdownToPlainText drops syntax and URLs but keeps the words', () => {
  const md = [
    '# Title here',
    '',
    'Some *emphasis* and **strong** with a [link text](https://example.com/a_b/c?d=1) and snake\\_case.',
    '',
    '![an \\[image\\]](https://cdn.example.com/img.png "t") [![logo](/l.png)](https://x.test/) [a \\[b\\] c](<https://x.test/a b>)',
    '',
    '- item one',
    '  1. nested two',
    '',
    '> quoted words',
    '',
    '| a | b |',
    '| --- | --- |',
    '| c | d |',
    '',
    '```ts',
    'const x = 1;',
    '```',
  ].join('\n');
  const text = markdownToPlainText(md);
  assert.deepEqual(tokenize(text), [
    'Title',
    'here',
    'Some',
    'emphasis',
    'and',
    'strong',
    'with',
    'a',
    'link',
    'text',
    'and',
    'snake_case',
    'a',
    'b',
    'c',
    'item',
    'one',
    'nested',
    'two',
    'quoted',
    'words',
    'a',
    'b',
    'c',
    'd',
    'const',
    'x',
    '1',
  ]);
});
