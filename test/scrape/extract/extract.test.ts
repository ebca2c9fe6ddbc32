import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage, isValidCssSelector, type ContentFormat } from '../../../src/scrape/extract/index.js';
import { fixture, pageUrl } from './helpers.js';

const ALL: ContentFormat[] = ['markdown', 'html', 'text', 'links'];

function page(name: string, extra: Partial<Parameters<typeof extractPage>[0]> = {}) {
  return extractPage({
    html: fixture(`${name}.html`),
    url: pageUrl(name),
    onlyMainContent: true,
    formats: ALL,
    ...extra,
  });
}

test('onlyMainContent true drops nav/header/aside/footer; false keeps the whole body', () => {
  const main = page('article');
  const full = page('article', { onlyMainContent: false });
  for (const boiler of [
    'Most read',
    'Storm season arrives early',
    'All rights reserved',
    '[News](http://site.test/news/)',
  ]) {
    assert.ok(!main.markdown?.includes(boiler), `main content must not contain ${boiler}`);
    assert.ok(full.markdown?.includes(boiler), `full page must contain ${boiler}`);
  }
  assert.ok(main.markdown?.startsWith('# How Lighthouses Work\n'));
  assert.ok(full.markdown?.includes('# How Lighthouses Work\n'));
  // Scripts and styles never leak into any format.
  for (const r of [main, full]) {
    assert.ok(!r.markdown?.includes('analytics') && !r.text?.includes('analytics') && !r.html?.includes('<script'));
    assert.ok(!r.html?.includes('font-family'));
  }
});

test('formats: only what is asked is computed', () => {
  const r = page('article', { formats: ['links'] });
  assert.deepEqual(Object.keys(r).sort(), ['links', 'metadata']);
  const m = page('article', { formats: ['markdown'] });
  assert.equal(m.html, undefined);
  assert.equal(m.text, undefined);
  assert.equal(m.links, undefined);
  assert.equal(typeof m.markdown, 'string');
});

test('metadata fields', () => {
  const { metadata } = page('article', { formats: [] });
  assert.deepEqual(metadata, {
    title: 'How Lighthouses Work | Coastal Weekly',
    description: 'A short history of lighthouse optics and keepers.',
    language: 'en',
    canonical: 'http://site.test/articles/how-lighthouses-work',
    og: {
      title: 'How Lighthouses Work',
      type: 'article',
      image: 'http://site.test/images/og-lighthouse.jpg',
      url: 'http://site.test/pages/article.html',
    },
    author: 'Ada Keeper',
    publishedTime: '2024-05-01T08:00:00Z',
    favicon: 'http://site.test/favicon.ico',
  });
  // Canonical resolves against <base href>.
  assert.equal(page('base-tag', { formats: [] }).metadata.canonical, 'https://cdn.example.com/docs/install.html');
});

test('metadata title falls back to og:title, then the first h1; description to og:description; language to the meta', () => {
  const og = extractPage({
    html: '<html><head><meta property="og:title" content="OG Title"><meta property="og:description" content="OG desc"><meta http-equiv="content-language" content="de"></head><body><h1>Heading</h1></body></html>',
    url: 'https://x.test/',
    onlyMainContent: false,
    formats: [],
  }).metadata;
  assert.equal(og.title, 'OG Title');
  assert.equal(og.description, 'OG desc');
  assert.equal(og.language, 'de');
  const h1 = extractPage({
    html: '<body><h1> Only  a heading </h1></body>',
    url: 'https://x.test/',
    onlyMainContent: false,
    formats: [],
  }).metadata;
  assert.equal(h1.title, 'Only a heading');
  assert.deepEqual(
    extractPage({ html: '<p>x</p>', url: 'https://x.test/', onlyMainContent: false, formats: [] }).metadata,
    { title: '', og: {} },
  );
});

test('links: whole page, absolute, no fragments, de-duplicated, http(s) only, document order', () => {
  assert.deepEqual(page('links').links, [
    'http://site.test/',
    'http://site.test/about',
    'http://site.test/pages/links.html',
    'http://other.test/path?q=1',
    'https://example.org/x',
    'http://site.test/pages/sub/page.html',
    'http://site.test/spaced',
    'http://site.test/contact',
  ]);
  // Links come from the whole page even when only the main content is converted.
  const links = page('article').links ?? [];
  assert.ok(links.includes('http://site.test/news/storm-season.html'));
  assert.ok(links.includes('http://site.test/privacy/'));
});

test('links resolve against <base href>', () => {
  assert.deepEqual(page('base-tag').links, [
    'https://cdn.example.com/docs/index.html',
    'https://cdn.example.com/docs/downloads/latest.html',
    'https://cdn.example.com/guides/first-steps.html',
    'https://cdn.example.com/faq.html',
  ]);
});

test('text output: one line per block, whitespace collapsed, no markup', () => {
  assert.equal(
    page('base-tag').text,
    [
      'Installing the CLI',
      'Download the archive for your platform from the downloads page and unpack it anywhere on your disk. The binary has no other dependencies and runs on any recent system.',
      'Then check the installation by printing the version, and read the first steps guide or the FAQ when something goes wrong.',
    ].join('\n'),
  );
  const text = page('article').text ?? '';
  assert.ok(text.includes('\nTrim the wicks\nRemove the charred ends\nCheck the oil level\nPolish the lens\n'));
  assert.doesNotMatch(text, /[<>]| {2}/);
});

test('cleaned html: main content only, absolute href/src/srcset, no scripts/comments', () => {
  const html =
    extractPage({
      html: `<html><body><nav><a href="/n">Nav</a></nav><article><h1>Title of the post</h1>
      <!-- a comment --><script>evil()</script>
      <p>${'Some long enough article text to be the main content of the page. '.repeat(8)}
      <a href="rel/link">rel</a> <img src="i.png" srcset="i.png 1x, /big/i.png 2x"></p></article></body></html>`,
      url: 'https://www.example.com/blog/post',
      onlyMainContent: true,
      formats: ['html'],
    }).html ?? '';
  assert.ok(html.includes('href="https://www.example.com/blog/rel/link"'));
  assert.ok(html.includes('src="https://www.example.com/blog/i.png"'));
  assert.ok(html.includes('srcset="https://www.example.com/blog/i.png 1x, https://www.example.com/big/i.png 2x"'));
  assert.ok(html.includes('<h1>Title of the post</h1>'));
  assert.ok(!html.includes('<!--') && !html.includes('evil') && !html.includes('Nav'));
  assert.doesNotMatch(html, /<DIV|readability-page/);
});

test('excludeTags removes matching elements before extraction', () => {
  const r = page('article', { excludeTags: ['blockquote', 'h2'], formats: ['markdown'] });
  assert.ok(!r.markdown?.includes('twenty miles'));
  assert.ok(!r.markdown?.includes("keeper's duties"));
  assert.ok(r.markdown?.includes('Fresnel lens'));
});

test('includeTags keeps only matching elements (outermost match, document order)', () => {
  const r = page('article', {
    onlyMainContent: false,
    includeTags: ['blockquote', 'h1', 'blockquote p'],
    formats: ['markdown', 'text'],
  });
  assert.equal(
    r.markdown,
    '# How Lighthouses Work\n\n> The lens concentrated the light of a single lamp into a beam visible for more than twenty miles.',
  );
  const none = page('article', {
    onlyMainContent: false,
    includeTags: ['.does-not-exist'],
    formats: ['markdown', 'text'],
  });
  assert.equal(none.markdown, '');
  assert.equal(none.text, '');
  // Links are still those of the whole page.
  assert.ok((page('article', { includeTags: ['h1'], formats: ['links'] }).links ?? []).length > 5);
});

test('includeTags picking chrome keeps it in main-content mode', () => {
  const r = page('article', { includeTags: ['nav'], formats: ['markdown'] });
  assert.equal(
    r.markdown,
    '- [News](http://site.test/news/)\n- [Travel](http://site.test/travel/)\n- [About](http://site.test/about/)',
  );
});

test('include and exclude combine; invalid selectors are ignored at extraction time', () => {
  const r = page('table', {
    onlyMainContent: false,
    includeTags: ['#content'],
    excludeTags: ['table', '[[bad'],
    formats: ['text'],
  });
  assert.equal(
    r.text,
    [
      'Tide Tables for May',
      'The table below lists the predicted high and low tides at the harbour entrance for the first days of May. Times are local and heights are given in metres above chart datum.',
      "Predictions can differ from observed levels by up to half a metre in strong onshore winds, so always check the harbour master's notices before sailing.",
    ].join('\n'),
  );
});

test('short or list-like pages fall back to the page minus boilerplate', () => {
  const html = `<html><head><title>Shop</title></head><body>
    <header><a href="/">Logo</a><nav><a href="/a">A</a></nav></header>
    <div class="cookie-banner">We use cookies. <a href="/ok">OK</a></div>
    <main><h1>Opening hours</h1><ul><li>Mon–Fri 9–17</li><li>Sat 10–14</li></ul></main>
    <footer>Footer text</footer></body></html>`;
  const r = extractPage({ html, url: 'https://shop.test/', onlyMainContent: true, formats: ['markdown'] });
  assert.equal(r.markdown, '# Opening hours\n\n- Mon–Fri 9–17\n- Sat 10–14');
});

test('malformed and empty input never throw', () => {
  const empty = extractPage({ html: '', url: 'https://x.test/', onlyMainContent: true, formats: ALL });
  assert.deepEqual(empty, { metadata: { title: '', og: {} }, links: [], markdown: '', html: '', text: '' });
  for (const html of [
    'just text',
    '<div><p>unclosed <b>bold',
    '</td></tr><p>x',
    '<<<>>>',
    '<html><body></html></body>',
    '\u0000\uFFFF',
  ]) {
    for (const onlyMainContent of [true, false]) {
      const r = extractPage({ html, url: 'not a url', onlyMainContent, formats: ALL });
      assert.equal(typeof r.markdown, 'string');
      assert.ok(Array.isArray(r.links));
    }
  }
  const r = extractPage({
    html: '<div><p>unclosed <b>bold',
    url: 'https://x.test/',
    onlyMainContent: false,
    formats: ['markdown'],
  });
  assert.equal(r.markdown, 'unclosed **bold**');
  // Hostile nesting is flattened to text below a depth cap instead of recursing through it.
  const started = Date.now();
  const deep = extractPage({
    html: '<title>Deep</title>' + '<div>'.repeat(5000) + 'deep text',
    url: 'https://x.test/',
    onlyMainContent: true,
    formats: ['markdown'],
  });
  assert.equal(deep.metadata.title, 'Deep');
  assert.equal(deep.markdown, 'deep text');
  assert.ok(Date.now() - started < 5000);
});

test('nesting deeper than the call stack, in the body or the head, keeps metadata, links and content', () => {
  const levels = 20_000;
  const inBody = '<title>Deep</title><a href="/x">x</a>' + '<span>'.repeat(levels) + 'deep text <a href="/y">y</a>';
  const inHead =
    '<html><head><title>Deep</title>' +
    '<div>'.repeat(levels) +
    '</head><body><p>body text <a href="/y">y</a></p></body></html>';
  for (const onlyMainContent of [true, false]) {
    const started = Date.now();
    const body = extractPage({ html: inBody, url: 'https://x.test/', onlyMainContent, formats: ALL });
    assert.equal(body.metadata.title, 'Deep');
    assert.deepEqual(body.links, ['https://x.test/x', 'https://x.test/y']);
    assert.equal(body.markdown, '[x](https://x.test/x) deep text y');
    assert.equal(body.text, 'x deep text y');
    const head = extractPage({ html: inHead, url: 'https://x.test/', onlyMainContent, formats: ALL });
    assert.equal(head.metadata.title, 'Deep');
    assert.deepEqual(head.links, ['https://x.test/y']);
    assert.equal(head.markdown, 'body text [y](https://x.test/y)');
    assert.ok(Date.now() - started < 5000);
  }
});

test('a flat page of many paragraphs costs time linear in its size', () => {
  // Moving children one by one through arrays (every removal an indexOf and a splice) made the
  // scoring quadratic on wide nodes. CPU time of the fastest of three runs, so load matters less.
  const page = (n: number): string =>
    '<title>Flat</title><body>' +
    Array.from({ length: n }, (_, i) => `<p>Paragraph ${i}, with some words, and a comma or two.</p>`).join('');
  const cpuMs = (html: string): number => {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = process.cpuUsage();
      extractPage({ html, url: 'https://x.test/', onlyMainContent: true, formats: ['markdown'] });
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    return best;
  };
  const small = cpuMs(page(5_000));
  const large = cpuMs(page(40_000));
  assert.ok(
    large < 16 * small,
    `8x the paragraphs took ${(large / small).toFixed(1)}x the CPU time (${small.toFixed(0)} / ${large.toFixed(0)} ms)`,
  );
});

test('markdown conversion details: code languages, tables without header, links', () => {
  const html = `<body>
    <pre class="highlight-rust"><code>fn main() {}</code></pre>
    <pre><code class="lang-go">package main</code></pre>
    <pre>plain block</pre>
    <table><tr><td>a</td><td>b|c</td></tr><tr><td colspan="2">wide</td></tr></table>
    <p><a href="/x">x <em>y</em></a> <a href="#">skip</a> <a href="/empty"></a> <del>gone</del></p>
    <ol start="3"><li>three</li><li>four</li></ol></body>`;
  const md = extractPage({ html, url: 'https://x.test/dir/', onlyMainContent: false, formats: ['markdown'] }).markdown;
  assert.equal(
    md,
    [
      '```rust',
      'fn main() {}',
      '```',
      '',
      '```go',
      'package main',
      '```',
      '',
      '```',
      'plain block',
      '```',
      '',
      '| a | b\\|c |',
      '| --- | --- |',
      '| wide | |',
      '',
      '[x *y*](https://x.test/x) skip ~~gone~~',
      '',
      '3. three',
      '4. four',
    ].join('\n'),
  );
});

test('markdown: page text that reads as an HTML tag or autolink is escaped, so renderers show it', () => {
  const html = `<body><p>Watch &lt;The Palace&gt; tonight: &lt;b&gt;bold&lt;/b&gt;, &lt;!-- x --&gt;, &lt;https://x.test&gt;, but 1 &lt; 2 &gt; 0.</p>
    <p><code>&lt;b&gt; in code</code></p><pre>&lt;b&gt; in a block</pre></body>`;
  const md = extractPage({ html, url: 'https://x.test/', onlyMainContent: false, formats: ['markdown'] }).markdown;
  assert.equal(
    md,
    [
      'Watch \\<The Palace> tonight: \\<b>bold\\</b>, \\<!-- x -->, \\<https://x.test>, but 1 < 2 > 0.',
      '',
      '`<b> in code`',
      '',
      '```',
      '<b> in a block',
      '```',
    ].join('\n'),
  );
});

test('isValidCssSelector', () => {
  for (const ok of [
    'p',
    'div.content > p',
    '#main',
    'a[href^="http"]',
    'article, .post',
    'li:nth-child(2n+1)',
    'p:not(.ad)',
    '[data-x="1"]',
  ]) {
    assert.equal(isValidCssSelector(ok), true, ok);
  }
  for (const bad of [
    '',
    '   ',
    'div[',
    '[[bad',
    '>',
    'p:unknown-pseudo',
    'a[href=',
    'div..x',
    'x'.repeat(1001),
    'p >',
    '+ p',
  ]) {
    assert.equal(isValidCssSelector(bad), false, bad);
  }
});

test('content inside a <head> that is never closed, on a page without <body>, is body content (as browsers parse it)', () => {
  const paragraph = 'A paragraph of the article that a browser shows in the body, although the page never opened one.';
  const html = `<html><head><title>Sloppy</title><meta name="description" content="Described"><h1>Heading</h1><p>${paragraph}</p><p>${paragraph} Again.</p><a href="/next">Next</a>`;
  for (const onlyMainContent of [false, true]) {
    const r = extractPage({ html, url: 'https://x.test/a', onlyMainContent, formats: ['markdown', 'text', 'links'] });
    assert.equal(r.metadata.title, 'Sloppy');
    assert.equal(r.metadata.description, 'Described');
    assert.match(
      r.markdown ?? '',
      new RegExp(paragraph.slice(0, 40)),
      `onlyMainContent ${onlyMainContent}: ${r.markdown}`,
    );
    assert.match(r.text ?? '', /Again\./);
  }
  const links = extractPage({ html, url: 'https://x.test/a', onlyMainContent: false, formats: ['links'] }).links;
  assert.deepEqual(links, ['https://x.test/next']);
});

test('images: whole page, img src else data-src else the first srcset URL, absolute, once each, no data: URLs', () => {
  const html = `<!DOCTYPE html><html><head><title>G</title><base href="http://cdn.test/assets/"></head><body>
    <main><p>Pictures.</p><img src="a.png"><img data-src="/lazy.jpg"><img srcset=" s1.png 1x, s2.png 2x"></main>
    <footer><img src="data:image/png;base64,AAAA"><img src="a.png#top"><img src="javascript:alert(1)"><img alt="none"></footer>
    <template><img src="hidden.png"></template></body></html>`;
  const result = extractPage({ html, url: 'http://site.test/g', onlyMainContent: true, formats: ['images'] });
  assert.deepEqual(result.images, [
    'http://cdn.test/assets/a.png',
    'http://cdn.test/lazy.jpg',
    'http://cdn.test/assets/s1.png',
  ]);
  assert.equal(result.markdown, undefined);
});

test('images: a data: placeholder in src gives way to the lazy-loading data-src or srcset', () => {
  const html = `<html><body><img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg"><img src="data:," srcset="/set.png 1x"></body></html>`;
  const result = extractPage({ html, url: 'http://site.test/', onlyMainContent: false, formats: ['images'] });
  assert.deepEqual(result.images, ['http://site.test/real.jpg', 'http://site.test/set.png']);
});
