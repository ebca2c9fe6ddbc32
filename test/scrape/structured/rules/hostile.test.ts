// Hostile pages stay within the caps (src/scrape/structured/rules/limits.ts) and fast: a 5 MB JSON-LD script, a table
// of 50,000 rows, JSON-LD nested far beyond the depth cap, thousands of item scopes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../../src/scrape/extract/dom.js';
import {
  extractJsonByRules,
  readContentFacts,
  readPageFacts,
  RULE_LIMITS,
} from '../../../../src/scrape/structured/rules/index.js';
import { INTEGER, NUMBER, STRING, arrayOf, objectSchema } from './helpers.js';

const PRODUCT = objectSchema({ name: STRING, price: NUMBER });

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe('hostile pages', () => {
  test('a 5 MB JSON-LD script is skipped; the next script is still read', () => {
    const filler = 'x'.repeat(5_000_000);
    const html =
      `<html><head><script type="application/ld+json">{"@type":"Product","name":"Huge","description":"${filler}"}</script>` +
      '<script type="application/ld+json">{"@type":"Product","name":"Small","offers":{"price":"9.99"}}</script>' +
      '</head><body><p>x</p></body></html>';
    const { value, ms } = timed(() => extractJsonByRules(html, 'https://example.com/', { schema: PRODUCT }));
    assert.deepEqual(value, { name: 'Small', price: 9.99 });
    assert.ok(ms < 3000, `${ms} ms`);
  });

  test('50,000 table rows: records capped, fast', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `<tr><td>item ${i}</td><td>${i}.00</td></tr>`).join('');
    const html = `<html><body><table><tr><th>Name</th><th>Price</th></tr>${rows}</table></body></html>`;
    const page = parsePage(html);
    const { value: facts, ms } = timed(() => readContentFacts(page.body));
    assert.equal(facts.tables.length, 1);
    assert.equal(facts.tables[0]?.rows.length, RULE_LIMITS.maxRowsPerTable - 1);
    assert.ok(ms < 1000, `${ms} ms`);
    const whole = timed(() =>
      extractJsonByRules(html, 'https://example.com/', {
        schema: objectSchema({ rows: arrayOf({ name: STRING, price: NUMBER }) }),
      }),
    );
    const list = whole.value['rows'] as unknown[];
    assert.ok(list.length <= RULE_LIMITS.maxRowsPerTable);
    assert.deepEqual(list[1], { name: 'item 1', price: 1 });
    assert.ok(whole.ms < 15_000, `${whole.ms} ms`);
  });

  test('JSON-LD nested 30,000 deep (under the size cap): no stack overflow, values beyond the depth cap dropped', () => {
    const depth = 30_000;
    const nested = '{"@type":"Thing","child":'.repeat(depth) + '"bottom"' + '}'.repeat(depth);
    const html =
      `<script type="application/ld+json">{"@type":"Product","name":"Deep","isRelatedTo":${nested}}</script>` +
      `<script type="application/ld+json">${'['.repeat(depth)}${']'.repeat(depth)}</script><p>x</p>`;
    const { value, ms } = timed(() => extractJsonByRules(html, 'https://example.com/', { schema: PRODUCT }));
    assert.deepEqual(value, { name: 'Deep', price: null });
    assert.ok(ms < 3000, `${ms} ms`);
  });

  test('thousands of item scopes: the item budget holds', () => {
    const scopes = Array.from(
      { length: 20_000 },
      (_, i) => `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">P${i}</span></div>`,
    ).join('');
    const page = parsePage(`<html><body>${scopes}</body></html>`);
    const { value: facts, ms } = timed(() => readPageFacts(page, 'https://example.com/'));
    assert.equal(facts.items.length, RULE_LIMITS.maxItems);
    assert.ok(ms < 2000, `${ms} ms`);
  });

  test('microdata scopes nested 5,000 deep: read to the depth cap, no recursion overflow', () => {
    const open = '<div itemprop="part" itemscope itemtype="https://schema.org/Thing">'.repeat(5_000);
    const html = `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Root</span>${open}x${'</div>'.repeat(5_001)}`;
    const page = parsePage(html);
    const facts = readPageFacts(page, undefined);
    assert.equal(facts.items[0]?.props.get('name')?.[0], 'Root');
    const count = extractJsonByRules(html, 'https://example.com/', {
      schema: objectSchema({ name: STRING, n: INTEGER }),
    });
    assert.deepEqual(count, { name: 'Root', n: null });
  });
});
