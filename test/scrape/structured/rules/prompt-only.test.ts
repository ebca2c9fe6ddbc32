// Without a schema (user_prompt only) the rules return the main entity flattened plus the page's title and
// description, and nothing the page does not state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractJsonByRules } from '../../../../src/scrape/structured/rules/index.js';
import { fixture } from './helpers.js';

const ask = (name: string): Record<string, unknown> =>
  extractJsonByRules(fixture(name), 'https://example.com/page', { userPrompt: 'Extract the product details' });

test('a product: normalised fields of the main entity', () => {
  const out = ask('product-jsonld.html');
  assert.equal(out['title'], 'Aeron Chair, Size B, Graphite | Office Depot Plus');
  assert.equal(out['type'], 'Product');
  assert.equal(out['name'], 'Aeron Chair, Size B');
  assert.equal(out['description'], 'The ergonomic office chair with 8Z Pellicle suspension.');
  assert.equal(out['price'], 1299);
  assert.equal(out['currency'], 'EUR');
  assert.equal(out['availability'], 'InStock');
  assert.equal(out['brand'], 'Herman Miller');
  assert.equal(out['rating'], 4.6);
  assert.equal(out['review_count'], 128);
  assert.equal(out['image'], 'https://example.com/img/aeron-1.jpg');
  assert.equal(out['color'], 'Graphite');
  assert.equal(out['gtin13'], '0123456789012');
  // Nothing the page does not state, no null placeholders.
  for (const [key, value] of Object.entries(out)) assert.notEqual(value, null, key);
  assert.equal(out['author'], undefined);
});

test('an article: author, dates, keywords', () => {
  const out = ask('article-news.html');
  assert.equal(out['type'], 'NewsArticle');
  assert.equal(out['name'], 'City council approves new cycling lanes');
  assert.equal(out['author'], 'Maria Lopez');
  assert.equal(out['date_published'], '2024-05-14T08:30:00+02:00');
  assert.equal(out['date_modified'], '2024-05-14T11:05:00+02:00');
  assert.deepEqual(out['keywords'], ['cycling', 'city council', 'transport']);
  assert.equal(out['description'], 'The council voted 7-2 to build 14 km of protected lanes by 2026.');
});

test('a page without structured data: title and the visible label/value details', () => {
  const out = ask('specs-table.html');
  assert.equal(out['title'], 'TrailMaster 45 Backpack – Specifications');
  // The title without its " – Specifications" tail: the page's <h1>, which the title starts with.
  assert.equal(out['name'], 'TrailMaster 45 Backpack');
  assert.equal(out['price'], undefined);
  assert.deepEqual(out['details'], {
    Weight: '1.35 kg',
    Volume: '45 litres',
    Material: 'Recycled nylon ripstop',
    Colour: 'Forest green',
    'Rain cover included': 'Yes',
    Warranty: '5 years',
  });
});
