// Client CSS selectors (include_tags / exclude_tags) against crafted pages (issue 12, audit of
// item 3): css-select checks a plain descendant chain such as `span div div div` against every
// combination of ancestors, polynomial in the page depth with the chain as the degree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectAll } from 'css-select';
import { parseDocument } from 'htmlparser2';
import { extractPage } from '../../src/scrape/extract/index.js';
import { withDescendantCache } from '../../src/scrape/extract/selectors.js';
import { cpuTimed } from '../helpers/cpu-time.js';

/** A page of `depth` nested divs (the extractor caps depth at 256 before selectors run). */
function nested(depth: number): string {
  return `<html><body>${'<div>'.repeat(depth)}<p>deep text</p>${'</div>'.repeat(depth)}<p>A paragraph of ordinary text.</p></body></html>`;
}

describe('descendant chains in include_tags / exclude_tags', () => {
  for (const [selector, depth] of [
    ['span div div div', 400], // 9.3 s before
    ['span div div div div', 300], // 25 s on 200 before
    [`span${' div'.repeat(8)}`, 300],
    [`section${' div'.repeat(12)} p`, 300],
  ] as const) {
    it(`${selector} on ${depth} nested divs`, () => {
      for (const field of ['excludeTags', 'includeTags'] as const) {
        const { result, ms: elapsed } = cpuTimed(() =>
          extractPage({
            html: nested(depth),
            url: 'https://example.com/',
            onlyMainContent: false,
            formats: ['text'],
            [field]: [selector],
          }),
        );
        assert.equal(typeof result.text, 'string');
        assert.ok(elapsed < 2000, `${field}: ${elapsed.toFixed(0)} ms of CPU`);
      }
    });
  }

  it('adds the cache to the first compound of each chain, and leaves single compounds alone', () => {
    assert.equal(withDescendantCache('span div div'), 'span:is(*,:has(*)) div div');
    assert.equal(withDescendantCache('a[title="x y, z"] b, h1'), 'a[title="x y, z"]:is(*,:has(*)) b, h1');
    assert.equal(withDescendantCache('div.x\\ y > p'), 'div.x\\ y:is(*,:has(*)) > p');
    assert.equal(withDescendantCache('nav'), 'nav');
  });

  it('adding the cache changes no selection (random selectors on random pages)', () => {
    let state = 7;
    const rnd = (n: number) => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % n;
    };
    const compounds = [
      'div',
      'p',
      'span',
      '*',
      '.a',
      '#b',
      'div.a',
      '[data-x]',
      '[data-x="a b"]',
      'p:first-child',
      ':not(.a)',
      'div:has(> p)',
      'a[title="x, y"]',
      ':is(p, span)',
    ];
    const combinators = [' ', ' > ', ' + ', ' ~ ', '  '];
    const tags = ['div', 'p', 'span', 'a'];
    const page = (): string => {
      let html = '';
      const open: string[] = [];
      for (let i = 0; i < 40; i++) {
        if (open.length > 0 && rnd(3) === 0) html += `</${open.pop()}>`;
        else {
          const tag = tags[rnd(tags.length)]!;
          html += `<${tag}${rnd(3) === 0 ? ' class="a"' : ''}${rnd(5) === 0 ? ' id="b"' : ''}${rnd(4) === 0 ? ' data-x="a b"' : ''} title="x, y">`;
          open.push(tag);
        }
      }
      return (
        html +
        open
          .reverse()
          .map((t) => `</${t}>`)
          .join('')
      );
    };
    for (let n = 0; n < 300; n++) {
      const doc = parseDocument(page());
      const parts: string[] = [];
      for (let k = 0, count = 1 + rnd(2); k < count; k++) {
        let complex = compounds[rnd(compounds.length)]!;
        for (let j = 0, len = rnd(4); j < len; j++)
          complex += combinators[rnd(combinators.length)]! + compounds[rnd(compounds.length)]!;
        parts.push(complex);
      }
      const selector = parts.join(', ');
      const rewritten = withDescendantCache(selector);
      assert.deepEqual(
        selectAll(rewritten, doc.children),
        selectAll(selector, doc.children),
        `${selector} -> ${rewritten}`,
      );
    }
  });
});
