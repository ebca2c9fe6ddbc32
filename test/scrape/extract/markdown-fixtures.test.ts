import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage } from '../../../src/scrape/extract/index.js';
import { fixture, pageUrl } from './helpers.js';

for (const name of ['article', 'table', 'code', 'base-tag']) {
  test(`${name}.html main-content markdown equals ${name}.md exactly`, () => {
    const expected = fixture(`${name}.md`);
    const { markdown } = extractPage({
      html: fixture(`${name}.html`),
      url: pageUrl(name),
      onlyMainContent: true,
      formats: ['markdown'],
    });
    assert.ok(expected.length > 100, 'expected file is not empty');
    assert.ok(markdown === expected, `markdown differs from ${name}.md:\n${markdown}`);
  });
}

test('markdown has no trailing spaces, no double blank lines, and is trimmed', () => {
  for (const name of ['article', 'table', 'code', 'base-tag', 'links']) {
    for (const onlyMainContent of [true, false]) {
      const { markdown = '' } = extractPage({
        html: fixture(`${name}.html`),
        url: pageUrl(name),
        onlyMainContent,
        formats: ['markdown'],
      });
      assert.ok(markdown.length > 0);
      assert.doesNotMatch(markdown, /[ \t]+$/m, `${name}: trailing whitespace`);
      assert.doesNotMatch(markdown, /\n{3,}/, `${name}: more than one blank line`);
      assert.equal(markdown, markdown.trim());
    }
  }
});
