import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage, textContent } from '../../../src/scrape/extract/dom.js';
import { readArticle } from '../../../src/scrape/extract/readability.js';

function articleText(html: string): string | null {
  const article = readArticle(parsePage(html));
  return article ? textContent(article.content).replace(/\s+/g, ' ').trim() : null;
}

test('a retry after the scoring removed <html> itself scans nothing, as Readability does without a documentElement', () => {
  // "header-spacing" on <html> is an unlikely-candidate marker: the first attempt removes the whole
  // document element, so it and every retry wrap the body as it is instead of scoring paragraphs.
  const comment = 'Commentary, with commas, lots of them, here. '.repeat(16).trim();
  const html = `<html class="header-spacing"><head><title>T</title></head><body>
    <div class="comment"><div><div><p>${comment}</p></div><div>Aside.</div></div></div>
    <div id="main"><span>Short text.</span></div>
  </body></html>`;
  // Attempts 1 and 2 drop the negatively weighted comment (too little text left); attempt 3 weighs no
  // classes and keeps it. "Aside." is a div without text-bearing children, cleaned away since it was
  // never turned into a paragraph by a scan.
  assert.equal(articleText(html), `${comment} Short text.`);
});
