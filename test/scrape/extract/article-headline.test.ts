// Main content keeps the article's headline (from h1, h2 or og:title), its byline and its figure captions (issue 13,
// item 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage, type ContentFormat } from '../../../src/scrape/extract/index.js';
import { fixture, pageUrl } from './helpers.js';

const TITLE = 'Why Sourdough Needs Time';
const SITE = 'The Crumb Journal';

const PARAGRAPHS = `
  <p>Most bread recipes ask for a few hours between mixing and baking. Sourdough asks for a day or more, and bakers who try to hurry it usually end up with a dense, pale loaf.</p>
  <p>The reason is that a sourdough starter is a slow community of wild yeasts and lactic acid bacteria. The yeasts raise the dough, while the bacteria produce the acids that give the crumb its tang.</p>
  <p>A long, cold proof in the refrigerator slows the yeasts far more than the bacteria. The dough rises gently while the flavour keeps developing, and the baker gains a flexible window in which to bake.</p>
  <p>Whatever the schedule, write down what you did. A notebook of times, temperatures and results is the fastest way to learn how your own starter behaves through the seasons.</p>`;
const FIRST_SENTENCE = 'Most bread recipes ask for a few hours between mixing and baking.';

/** Chrome that must never reach main content, whatever the article markup. */
const CHROME_TEXT = [
  'Notes from a home bakery',
  'Recipes',
  'Equipment',
  'Recent Posts',
  'Keeping a rye starter alive',
  'Proudly powered by',
  'Posted in',
  'overnight proof',
];

interface PageParts {
  /** Extra <head> markup (title and og tags). */
  head?: string;
  /** The site's own header band; by default a site-name h1 linking home, a tagline and a menu. */
  siteHeader?: string;
  /** The start of the article: title, byline... */
  articleHeader: string;
  /** The article text; by default four paragraphs. */
  body?: string;
}

/** A blog theme page: site header, article (header, content, footer), comments, sidebar, site footer. */
function blogPage(parts: PageParts): string {
  const head =
    parts.head ??
    `<title>${TITLE} – ${SITE}</title><meta property="og:title" content="${TITLE}"><meta property="og:site_name" content="${SITE}">`;
  const siteHeader =
    parts.siteHeader ??
    `<header class="site-header"><div class="site-branding"><h1 class="site-title"><a href="/" rel="home">${SITE}</a></h1>
      <p class="site-description">Notes from a home bakery</p></div>
      <nav class="main-navigation"><ul><li><a href="/">Home</a></li><li><a href="/recipes/">Recipes</a></li><li><a href="/equipment/">Equipment</a></li></ul></nav></header>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head><body>
    ${siteHeader}
    <div id="content" class="site-content"><main id="main" class="site-main">
      <article class="post type-post hentry">
        ${parts.articleHeader}
        <div class="entry-content">${parts.body ?? PARAGRAPHS}</div>
        <footer class="entry-footer"><span class="cat-links">Posted in <a href="/category/bread/">Bread</a></span></footer>
      </article>
      <div id="comments" class="comments-area"><h2 class="comments-title">One thought on this post</h2>
        <ol class="comment-list"><li class="comment"><p>My loaves improved the week I switched to an overnight proof.</p></li></ol></div>
    </main>
    <aside class="widget-area"><section class="widget"><h2 class="widget-title">Recent Posts</h2>
      <ul><li><a href="/2026/02/20/rye-starter/">Keeping a rye starter alive</a></li></ul></section></aside></div>
    <footer class="site-footer"><div class="site-info">© 2026 ${SITE} · Proudly powered by WordPress</div></footer>
  </body></html>`;
}

function extract(html: string, formats: ContentFormat[] = ['markdown']) {
  return extractPage({
    html,
    url: 'https://crumb.test/2026/03/03/why-sourdough-needs-time/',
    onlyMainContent: true,
    formats,
  });
}

function markdownOf(html: string): string {
  return extract(html).markdown ?? '';
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function assertNoChrome(markdown: string): void {
  for (const chrome of CHROME_TEXT)
    assert.ok(!markdown.includes(chrome), `chrome "${chrome}" leaked into:\n${markdown}`);
}

test('the site-name h1 is never the headline, even when <title> holds it and no og tag names the site', () => {
  // Only <title> to go by: "Why Sourdough Needs Time – The Crumb Journal" holds every word of both
  // headings, but the h2 is the larger part of it.
  const titleOnly = blogPage({
    head: `<title>${TITLE} – ${SITE}</title>`,
    articleHeader: `<header class="entry-header"><h2 class="entry-title">${TITLE}</h2></header>`,
  });
  // The site header without a home link or a telling class: still the site's name (og:site_name).
  const bareHeader = blogPage({
    siteHeader: `<header><h1>${SITE}</h1><nav><a href="/recipes/">Recipes</a></nav></header>`,
    articleHeader: `<h2>${TITLE}</h2>`,
  });
  for (const html of [titleOnly, bareHeader]) {
    const markdown = markdownOf(html);
    assert.ok(markdown.startsWith(`# ${TITLE}\n\n${FIRST_SENTENCE}`), markdown);
    assert.ok(!markdown.includes(SITE), markdown);
    assertNoChrome(markdown);
  }
  // No heading holds the article's title and no og:title names it: no headline rather than the site's name.
  const noTitleAnywhere = blogPage({ head: `<title>${TITLE} – ${SITE}</title>`, articleHeader: '' });
  const markdown = markdownOf(noTitleAnywhere);
  assert.ok(markdown.startsWith(FIRST_SENTENCE), markdown);
  assert.ok(!markdown.includes(SITE), markdown);
});

test('og:title is the headline when no heading holds the article title; a site-name suffix is cut from it', () => {
  // The theme shows the title in a styled <div>, not a heading; <title> is only the site's name.
  for (const og of [TITLE, `${TITLE} | ${SITE}`, `${SITE} - ${TITLE}`]) {
    const html = blogPage({
      head: `<title>${SITE}</title><meta property="og:title" content="${og}"><meta property="og:site_name" content="${SITE}">`,
      articleHeader: `<header class="entry-header"><div class="entry-title">${TITLE}</div></header>`,
    });
    const markdown = markdownOf(html);
    assert.ok(markdown.startsWith(`# ${TITLE}\n\n${FIRST_SENTENCE}`), `og:title "${og}":\n${markdown}`);
    assert.equal(count(markdown, TITLE), 1, markdown);
    assertNoChrome(markdown);
  }
  // An og:title that is only the site's name is not a headline.
  const siteOnly = blogPage({
    head: `<title>${SITE}</title><meta property="og:title" content="${SITE}"><meta property="og:site_name" content="${SITE}">`,
    articleHeader: '',
  });
  assert.ok(markdownOf(siteOnly).startsWith(FIRST_SENTENCE), markdownOf(siteOnly));
});

test('a heading that repeats the headline after a label heading ("Breaking News") becomes the headline, not a second copy', () => {
  // A news theme: the title is an h1 in the page header and again an h2 in the article, after a label.
  const html = `<!DOCTYPE html><html><head><title>${TITLE} | ${SITE}</title></head><body>
    <div class="page-top"><h1 class="headline">${TITLE}</h1></div>
    <div class="article"><h2 class="label">Breaking News</h2><h2>${TITLE}</h2>${PARAGRAPHS}</div>
  </body></html>`;
  const markdown = markdownOf(html);
  assert.ok(markdown.startsWith(`# ${TITLE}\n\n`), markdown);
  assert.equal(count(markdown, TITLE), 1, markdown);
});

test('the h1 that is the article title stays the single headline', () => {
  const html = blogPage({
    siteHeader: `<header class="site-header"><a class="logo" href="/">${SITE}</a><nav><ul><li><a href="/recipes/">Recipes</a></li></ul></nav></header>`,
    articleHeader: `<header class="entry-header"><h1 class="entry-title">${TITLE}</h1></header>`,
  });
  const markdown = markdownOf(html);
  assert.ok(markdown.startsWith(`# ${TITLE}\n\n${FIRST_SENTENCE}`), markdown);
  assert.equal(count(markdown, TITLE), 1);
  assertNoChrome(markdown);
  // The article fixture (h1 title, a meta author but no byline on the page) is unchanged.
  const article =
    extractPage({
      html: fixture('article.html'),
      url: pageUrl('article'),
      onlyMainContent: true,
      formats: ['markdown'],
    }).markdown ?? '';
  assert.equal(article, fixture('article.md'));
});

test('pages full of headings and byline-like elements keep the headline and byline search linear', () => {
  // Every element a candidate: h2s matching the title, spans with author classes, "By ..." paragraphs.
  const hostile = (n: number): string =>
    `<title>${TITLE} – ${SITE}</title><body><h1>${SITE}</h1>` +
    Array.from(
      { length: n },
      (_, i) =>
        `<div class="author"><h2>${TITLE} ${i}</h2><span class="byline">By Jane ${i}</span><p>By Jane Doe, ${i}, with some words, and a comma or two.</p></div>`,
    ).join('');
  const cpuMs = (html: string): number => {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = process.cpuUsage();
      extract(html);
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    return best;
  };
  const small = cpuMs(hostile(2_000));
  const large = cpuMs(hostile(16_000));
  assert.ok(
    large < 16 * small,
    `8x the elements took ${(large / small).toFixed(1)}x the CPU time (${small.toFixed(0)} / ${large.toFixed(0)} ms)`,
  );
});

test('bylines in the usual markups come right after the headline', () => {
  const cases: Array<[string, string]> = [
    ['<p class="byline">By Jane Doe · March 3, 2026</p>', 'By Jane Doe · March 3, 2026'],
    [
      '<div class="entry-meta"><span class="author vcard">Posted by <a class="url fn n" href="/author/sam/">Sam Ortiz</a></span> on <time datetime="2026-03-03">March 3, 2026</time></div>',
      'Posted by Sam Ortiz on March 3, 2026',
    ],
    ['<address class="author">By <a href="/author/lee/">Lee Park</a></address>', 'By Lee Park'],
    [
      '<div class="post-info">Written by <a rel="author" href="/author/kim/">Kim Ng</a> · 6 min read</div>',
      'Written by Kim Ng · 6 min read',
    ],
    [
      '<div class="meta"><span itemprop="author" itemscope><span itemprop="name">Ana Ruiz</span></span></div>',
      'Ana Ruiz',
    ],
  ];
  for (const [bylineHtml, byline] of cases) {
    for (const heading of [`<h2 class="entry-title">${TITLE}</h2>`, `<h1 class="entry-title">${TITLE}</h1>`]) {
      // With an h1 title the site's name is not a heading (the other common theme).
      const siteHeader = heading.startsWith('<h1')
        ? `<header class="site-header"><p class="site-title"><a href="/" rel="home">${SITE}</a></p><nav><ul><li><a href="/recipes/">Recipes</a></li></ul></nav></header>`
        : undefined;
      const html = blogPage({
        siteHeader,
        articleHeader: `<header class="entry-header">${heading}${bylineHtml}</header>`,
      });
      const markdown = markdownOf(html);
      assert.ok(
        markdown.startsWith(`# ${TITLE}\n\n${byline}\n\n${FIRST_SENTENCE}`),
        `${bylineHtml} under ${heading}:\n${markdown}`,
      );
      assert.equal(count(markdown, byline), 1, markdown);
      assert.equal(count(markdown, TITLE), 1, markdown);
      assertNoChrome(markdown);
    }
  }
});

test('a byline below the featured image and a byline kept in the content are not repeated', () => {
  // The image sits between the title and the byline; the byline is still the article's.
  const belowImage = blogPage({
    articleHeader: `<header class="entry-header"><h2 class="entry-title">${TITLE}</h2>
      <div class="post-thumbnail"><img src="/img/loaf.jpg" alt="A loaf"></div>
      <p class="byline">By Jane Doe · March 3, 2026</p></header>`,
  });
  const markdown = markdownOf(belowImage);
  assert.ok(markdown.startsWith(`# ${TITLE}\n\n`), markdown);
  assert.equal(count(markdown, 'By Jane Doe · March 3, 2026'), 1, markdown);
  // A "By ..." line inside the article body, as plain text, stays where it is, once.
  const inBody = blogPage({
    articleHeader: `<h2 class="entry-title">${TITLE}</h2>`,
    body: `<p>By Jane Doe, contributing baker</p>${PARAGRAPHS}`,
  });
  const md2 = markdownOf(inBody);
  assert.ok(md2.startsWith(`# ${TITLE}\n\n`), md2);
  assert.ok(count(md2, 'By Jane Doe') <= 1, md2);
});

test('a byline is only looked for next to the headline: an author box after the article text is not moved up', () => {
  const html = blogPage({
    articleHeader: `<h2 class="entry-title">${TITLE}</h2>`,
    body: `${PARAGRAPHS}<div class="author-box"><span class="author">Jane Doe</span> bakes in Leeds.</div>`,
  });
  const markdown = markdownOf(html);
  assert.ok(markdown.startsWith(`# ${TITLE}\n\n${FIRST_SENTENCE}`), markdown);
});

test('figure captions are kept once, after their image, including WordPress caption markup and credits', () => {
  const body = `${PARAGRAPHS}
    <figure class="wp-block-image"><img src="/img/crumb.jpg" alt="An open crumb"><figcaption class="wp-element-caption">An open crumb after a 36-hour cold proof.</figcaption></figure>
    <p>Whole grain doughs ferment faster and are often ready sooner, so watch the dough rather than the clock when you plan the bake.</p>
    <figure id="attachment_7" class="wp-caption aligncenter"><img src="/img/banneton.jpg" alt="Dough in a banneton"><figcaption class="wp-caption-text">Dough resting in a cane banneton. <span class="credit">Photo: Sam Ortiz</span></figcaption></figure>
    <p>A notebook of times, temperatures and results is the fastest way to learn how your own starter behaves through the seasons.</p>
    <figure class="video-player"><div class="player"></div><figcaption>Live: watch the bakery cam</figcaption></figure>`;
  const html = blogPage({ articleHeader: `<h2 class="entry-title">${TITLE}</h2>`, body });
  const result = extract(html, ['markdown', 'text', 'html']);
  const markdown = result.markdown ?? '';
  assert.equal(count(markdown, 'An open crumb after a 36-hour cold proof.'), 1, markdown);
  assert.ok(
    markdown.includes(
      '![An open crumb](https://crumb.test/img/crumb.jpg)\n\nAn open crumb after a 36-hour cold proof.\n\n',
    ),
    markdown,
  );
  assert.ok(
    markdown.includes(
      '![Dough in a banneton](https://crumb.test/img/banneton.jpg)\n\nDough resting in a cane banneton. Photo: Sam Ortiz\n\n',
    ),
    markdown,
  );
  assert.equal(count(markdown, 'Dough resting in a cane banneton.'), 1, markdown);
  assert.equal(count(result.text ?? '', 'An open crumb after a 36-hour cold proof.'), 1, result.text);
  assert.equal(count(result.html ?? '', '<figcaption'), 2, result.html);
  // A caption whose figure shows nothing (a player drawn by scripts) is a label, not a caption.
  assert.ok(!markdown.includes('bakery cam'), markdown);
  assertNoChrome(markdown);
});

test('blog theme (site-name h1, article h2): the h2 is the headline, then the byline and the figure caption; the whole markdown', () => {
  const { markdown } = extractPage({
    html: fixture('blog-h2-title.html'),
    url: pageUrl('blog-h2-title'),
    onlyMainContent: true,
    formats: ['markdown'],
  });
  const expected = fixture('blog-h2-title.md');
  assert.ok(markdown === expected, `markdown differs from blog-h2-title.md:\n${markdown}`);
});

test('an embedded post in a "social-media-embed" wrapper is quoted content of the article, kept in place', () => {
  // A news theme wraps each tweet in <div class="social-media-embed">: "social" and "media" are chrome words for the
  // scoring, but the blockquote is what the article quotes.
  const tweet = 'Every loaf I bake on a cold morning takes an extra hour to rise, and the crumb is better for it.';
  const body = PARAGRAPHS.replace(
    '</p>',
    `</p><div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">${tweet}
      <a href="https://t.co/x1">https://t.co/x1</a></p>— A Baker (@baker) <a href="https://twitter.com/baker/status/1">March 3, 2026</a></blockquote></div>
      <div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">proof. it. works.
      <a href="https://twitter.com/hashtag/sourdough">#sourdough</a><br><br>⬇️<a href="https://t.co/x2">https://t.co/x2</a></p>
      — Another Baker (@baker2) <a href="https://twitter.com/baker2/status/2">March 4, 2026</a></blockquote></div>`,
  );
  const markdown = markdownOf(
    blogPage({ articleHeader: `<header class="entry-header"><h1 class="entry-title">${TITLE}</h1></header>`, body }),
  );
  assert.ok(markdown.includes(`> ${tweet}`), markdown);
  assert.ok(markdown.indexOf(tweet) > markdown.indexOf(FIRST_SENTENCE), 'after the paragraph it follows');
  assert.ok(markdown.includes('— A Baker (@baker)'), markdown);
  // A post that is mostly links (a hashtag, a t.co URL) keeps its text too.
  assert.ok(markdown.includes('> proof. it. works.'), markdown);
  assertNoChrome(markdown);
});
