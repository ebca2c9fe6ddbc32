// Post-filter rules for in-article boilerplate (issue 13): each test fails without its rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage } from '../../../src/scrape/extract/index.js';

const BODY = [
  'The harbour authority said on Tuesday that the old lighthouse would be restored over the next two summers, with the lamp room rebuilt from the original drawings kept in the town archive.',
  'Engineers found that the iron frame had survived a century of storms far better than expected, although the glazing and the gallery rail will have to be replaced entirely before visitors return.',
  'Local historians welcomed the decision and asked that the keeper’s cottage, empty since the light was automated, be opened as a small museum about the families who kept the lamp burning.',
  'The work is expected to cost a little under two million and will be paid for by the regional heritage fund, with the remainder raised by a public appeal that has already passed its first target.',
];

/** A news article whose body is BODY, with `inside` after the second paragraph and `after` at its end. */
function article(inside = '', after = ''): string {
  const ps = BODY.map((t) => `<p>${t}</p>`);
  ps.splice(2, 0, inside);
  return `<!doctype html><html><head><title>Lighthouse to be restored</title></head><body>
<article><h1>Lighthouse to be restored</h1>${ps.join('\n')}${after}</article></body></html>`;
}

function markdown(html: string, url = 'https://news.example.com/2026/lighthouse.html'): string {
  return extractPage({ html, url, onlyMainContent: true, formats: ['markdown'] }).markdown ?? '';
}

test('hover cards written inside a sentence (rollover, hovercard, popover, tooltip) are dropped, the sentence kept', () => {
  for (const cls of ['rollover-people-block', 'hovercard', 'c-popover', 'tooltip']) {
    const md = markdown(
      article(
        `<p>The mayor <a href="/people/ann-lee">Ann Lee</a><span class="${cls}"><img src="/ann.jpg" alt=""><a href="/people/ann-lee">Ann Lee Smith</a> <a href="/a/1">Mayor opens bridge</a> <a href="/a/2">Mayor closes pool</a></span> said the town was proud of its light.</p>`,
      ),
    );
    assert.match(md, /The mayor \[Ann Lee\]\([^)]*\) said the town was proud of its light\./, cls);
    assert.ok(!md.includes('Mayor opens bridge') && !md.includes('Ann Lee Smith'), cls);
  }
});

test('closing notes set in italics (bio, promo, follow us) are dropped at the end; corrections stay', () => {
  const md = markdown(
    article(
      '',
      `<p><em>Follow the newsroom on</em> <a href="https://social.example/news">Instagram</a><em>,</em> <a href="https://video.example/news">YouTube</a> <em>and in our weekly podcast.</em></p>
<p><i>Ann Lee writes about the coast and its history. Her book about lighthouses is out now.</i></p>`,
    ),
  );
  assert.ok(!md.includes('Follow the newsroom') && !md.includes('Her book about lighthouses'), md);
  assert.ok(md.includes('public appeal that has already passed its first target'));
  const kept = markdown(article('', '<p><em><strong>Correction:</strong> An earlier version gave the wrong year for the automation of the light.</em></p>'));
  assert.ok(kept.includes('An earlier version gave the wrong year'), kept);
});
