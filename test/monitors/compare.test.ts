// The comparison under monitors: normalization masks what changes on every load, the diff is unified and bounded,
// and the rules' judgment tells a real change from noise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeTextChange } from '../../src/monitors/judge.js';
import { NORMALIZE_LIMITS, normalizeLine, normalizeText } from '../../src/monitors/normalize.js';
import { DIFF_LIMITS, diffTexts } from '../../src/monitors/text-diff.js';

const compare = (a: string, b: string) => diffTexts(normalizeText(a).lines, normalizeText(b).lines, 'https://x.test/');

describe('normalization', () => {
  it('masks clocks, timestamps, relative times and tokens, and keeps content', () => {
    assert.equal(normalizeLine('Updated at 14:05:09 today'), 'Updated at ⟨time⟩ today');
    assert.equal(normalizeLine('Last sync 2026-11-26T14:05:09.123Z'), 'Last sync ⟨datetime⟩');
    assert.equal(normalizeLine('Posted 5 minutes ago'), 'Posted ⟨ago⟩');
    assert.equal(normalizeLine('Seen an hour ago'), 'Seen ⟨ago⟩');
    assert.equal(normalizeLine('ts=1764165909123'), 'ts=⟨timestamp⟩');
    assert.equal(normalizeLine('csrf 9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c'), 'csrf ⟨token⟩');
    assert.equal(
      normalizeLine('  The   iPhone15ProMax256GB costs 1,199.00  '),
      'The iPhone15ProMax256GB costs 1,199.00',
    );
    assert.equal(normalizeLine('Price: 149.99 EUR'), 'Price: 149.99 EUR');
  });

  it('drops blank lines and bounds the text', () => {
    assert.deepEqual(normalizeText('a\n\n   \nb').lines, ['a', 'b']);
    const long = normalizeText(`${'x'.repeat(NORMALIZE_LIMITS.maxLineChars + 10)}\nnext`);
    assert.equal(long.truncated, true);
    assert.equal(long.lines[0]?.length, NORMALIZE_LIMITS.maxLineChars);
    const many = normalizeText(Array.from({ length: NORMALIZE_LIMITS.maxLines + 5 }, (_, i) => `l${i}`).join('\n'));
    assert.equal(many.lines.length, NORMALIZE_LIMITS.maxLines);
    assert.equal(many.truncated, true);
  });

  it('runs in linear time on hostile lines', () => {
    const started = Date.now();
    normalizeText(`${'a1-'.repeat(600)}\n${'9:'.repeat(900)}\n${'1 '.repeat(900)}ago`.repeat(50));
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });
});

describe('text diff and judgment', () => {
  const page = (clock: string, price: string, extra = '') =>
    `Shop X — Anvil A1\nThe anvil is forged from one block of steel.\nPrice: ${price} EUR\nPage generated at ${clock}\n${extra}`;

  it('sees no change when only the clock moved', () => {
    const diff = compare(page('10:00:01', '149.99'), page('10:05:42', '149.99'));
    assert.equal(diff.diffText, '');
    assert.equal(diff.changeRatio, 0);
  });

  it('gives a unified diff of a price change, judged meaningful because a number moved', () => {
    const diff = compare(page('10:00', '149.99'), page('10:05', '139.99'));
    assert.match(diff.diffText, /^--- https:\/\/x\.test\//m);
    assert.match(diff.diffText, /^-Price: 149\.99 EUR$/m);
    assert.match(diff.diffText, /^\+Price: 139\.99 EUR$/m);
    assert.match(diff.diffText, /^@@ /m);
    const judgment = judgeTextChange(diff);
    assert.equal(judgment.meaningful, true);
    assert.equal(judgment.source, 'rules');
    assert.match(judgment.reason, /149\.99.*139\.99/);
  });

  it('judges added paragraphs meaningful and punctuation or case alone not', () => {
    const added = compare(page('1:00', '5'), page('1:00', '5', 'New: the anvil now ships with a free hammer.'));
    assert.equal(judgeTextChange(added).meaningful, true);
    const cosmetic = compare('The anvil is forged from steel.', 'The Anvil is forged from steel!');
    assert.ok(cosmetic.diffText !== '');
    assert.equal(judgeTextChange(cosmetic).meaningful, false);
    const tiny = compare('Menu\nHome', 'Menu\nStart');
    assert.equal(judgeTextChange(tiny).meaningful, false);
  });

  it('bounds the diff text and reports a whole replacement past the edit budget', () => {
    const before = Array.from({ length: 12_000 }, (_, i) => `line ${i} of the old page`);
    const after = Array.from({ length: 12_000 }, (_, i) => `row ${i} of the new page`);
    const started = Date.now();
    const diff = diffTexts(before, after, 'u');
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    assert.equal(diff.addedLines.length, 12_000);
    assert.equal(diff.removedLines.length, 12_000);
    assert.ok(diff.diffText.length <= DIFF_LIMITS.maxDiffChars);
    assert.equal(diff.diffTextTruncated, true);
    assert.equal(diff.changeRatio, 1);
  });
});
