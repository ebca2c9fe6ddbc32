import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { DomHandler, Parser, Tokenizer } from 'htmlparser2';
import type { Document } from 'domhandler';
import { fastTokenizer } from '../../../src/scrape/extract/tokenizer.js';
import { PAGES_DIR, fixture } from './helpers.js';

function parse(html: string, T: typeof Tokenizer): Document {
  const handler = new DomHandler();
  new Parser(handler, { decodeEntities: true, Tokenizer: T }).end(html);
  return handler.root;
}

/** The whole tree as JSON, without the circular links. */
function dump(doc: Document): string {
  return JSON.stringify(doc, (key, value: unknown) =>
    key === 'parent' || key === 'prev' || key === 'next' ? undefined : value,
  );
}

const TRICKY = [
  'a &amp; b &lt;x&gt; &nbsp;&copy c &#x41; &unknown; <p title="x &amp; y" data-a=\'1 & 2\' c=d&amp;e>t</p>',
  '<script>if (a < b && c) { x = "</scr" + "ipt>" }</script><style>a<b{}</style><title>A &amp; B</title><textarea>x &lt; y</textarea>',
  '<div>unterminated &am',
  '<p a="unterminated',
  '<p a=\'x\' b="y" c=z d>',
  '<script>never closed',
  'x < y > z << & &&; <3 <!-- c --> <!doctype html><?pi x?> <![CDATA[ d ]]>',
  '<SCRIPT>x</SCRIPT ><Style>y</STYLE\n>',
];

test('the fast tokenizer builds the same tree as htmlparser2 stock one', () => {
  assert.notEqual(fastTokenizer(), Tokenizer, 'the overrides apply to this htmlparser2 version');
  const pages = readdirSync(PAGES_DIR)
    .filter((f) => f.endsWith('.html'))
    .map((f) => fixture(f));
  for (const html of [...pages, ...TRICKY]) {
    assert.equal(dump(parse(html, fastTokenizer())), dump(parse(html, Tokenizer)), html.slice(0, 60));
  }
});
