// Regexes applied to page content (issue 12, audit of item 3): a crafted page must not make the
// extractor's regexes take super-linear time. Each case is a 1 MB page built against one regex that
// took seconds on 40,000-80,000 characters before (quadratic: hours at 1 MB).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPage } from '../../src/scrape/extract/index.js';
import { stripTrailingBlanks } from '../../src/scrape/extract/markdown.js';
import { cpuTimed } from '../helpers/cpu-time.js';

const MB = 1_000_000;
const page = (body: string) =>
  `<html><head><title>t</title></head><body><article><h1>Title</h1><p>Some text of the page that is long enough to be content for the extractor to keep.</p>${body}<p>More text of the page that is long enough to be content.</p></article></body></html>`;

const CASES: Array<[name: string, body: string]> = [
  // markdown.ts fencedBlock /\s+$/ and normalizeMarkdown /[ \t\u00a0]+$/gm (40k: 3.3 s)
  ['a <pre> with a 1 MB run of spaces before text', `<pre>a${' '.repeat(MB)}x</pre>`],
  ['a <pre> with a 1 MB run of tabs before text, then a line', `<pre>a${'\t'.repeat(MB)}x\ny</pre>`],
  // readability.ts styleValue split(/\s*;\s*/) (40k: 4.6 s)
  [
    'a style attribute with a 1 MB run of spaces',
    `<div style="color:red${' '.repeat(MB)}x"><p>Styled text that is long enough to be content.</p></div>`,
  ],
  // absolutize.ts srcset /,+$/ (80k: 2.2 s)
  ['a srcset with a 1 MB run of commas inside a URL', `<img src="a.png" srcset="a${','.repeat(MB)}x, b.png 2x,">`],
];

describe('regexes over page content stay linear on crafted 1 MB pages', () => {
  for (const [name, body] of CASES) {
    it(name, () => {
      for (const onlyMainContent of [true, false]) {
        const { result, ms: elapsed } = cpuTimed(() =>
          extractPage({
            html: page(body),
            url: 'https://example.com/',
            onlyMainContent,
            formats: ['markdown', 'html', 'text', 'links'],
          }),
        );
        assert.equal(typeof result.markdown, 'string');
        // Generous: the whole extraction of a 1 MB page, in CPU time (which a loaded machine does not stretch).
        assert.ok(elapsed < 5000, `onlyMainContent ${onlyMainContent}: ${elapsed.toFixed(0)} ms of CPU`);
      }
    });
  }

  it('stripTrailingBlanks is /[ \\t\\u00a0]+$/gm without the regex', () => {
    let state = 3;
    const rnd = (n: number) => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % n;
    };
    const chars = [' ', '\t', '\u00a0', '\n', '\r', '\u2028', '\u2029', 'a', 'b'];
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: rnd(16) }, () => chars[rnd(chars.length)]).join('');
      assert.equal(stripTrailingBlanks(text), text.replace(/[ \t\u00a0]+$/gm, ''), JSON.stringify(text));
    }
  });
});
