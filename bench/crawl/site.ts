// Deterministic synthetic news/blog site for the crawl benchmark: every page is rendered on the fly from its path.
//
// Page 0 is `/`, pages 1..8 are the section fronts (`/news/` …), every other page i is
// `/<section>/<slug>-<i>`. Page i links to its "children" 10i+1..10i+10 (the related-articles
// block), so every page is reachable from `/` within ceil(log10(size)) + 1 hops, plus 8–20
// seeded random pages inline and a few in the sidebar; header (30 links) and footer (20 links)
// are the same on every page, as on real sites.

export const SECTIONS = ['news', 'blog', 'docs', 'shop', 'sport', 'tech', 'travel', 'food'] as const;
const SEED = 0x5eed_c0de;

/** mulberry32: tiny, fast, good enough for deterministic test content. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were ' +
  'her she there been one all we their has would when if so no will more can out up about into them some could time ' +
  'market city council report season team player data model system network server release update version feature ' +
  'policy government minister election budget economy growth price energy climate weather storm river coast travel ' +
  'hotel recipe kitchen flavor garden museum festival music film review author book science research study health ' +
  'hospital school student teacher family community project company startup product customer service support design ' +
  'engine database query cache latency throughput browser request response header cookie session token migration ' +
  'schedule match goal league final record coach stadium ticket fan route flight airport island mountain village ' +
  'bread cheese wine coffee dinner breakfast sauce oven spice harvest autumn winter spring summer morning evening ' +
  'analysis history future change challenge decision evidence question answer result effect impact level process ' +
  'local national global public private annual recent early major minor strong quick careful simple complex ' +
  'important different possible available popular similar significant particular economic social political'
).split(' ');

const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pavel',
];
const LAST = [
  'Smith',
  'Garcia',
  'Müller',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Silva',
  'Novak',
  'Jensen',
  'Tanaka',
  'Okafor',
  'Larsen',
];

function words(r: Rand, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(pick(r, WORDS));
  return out.join(' ');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function sectionOf(i: number): string {
  if (i >= 1 && i <= SECTIONS.length) return SECTIONS[i - 1] as string;
  return SECTIONS[i % SECTIONS.length] as string;
}

/** Title of page i; a page's title is needed wherever it is linked, so it depends on i alone. */
export function titleOf(i: number): string {
  if (i === 0) return 'Synthetic Times: front page';
  if (i <= SECTIONS.length) return `${capitalize(sectionOf(i))}: latest stories`;
  const r = prng(SEED ^ Math.imul(i, 0x9e3779b1));
  return capitalize(words(r, int(r, 4, 9)));
}

export function pathOf(i: number): string {
  if (i === 0) return '/';
  if (i <= SECTIONS.length) return `/${sectionOf(i)}/`;
  const slug = titleOf(i)
    .toLowerCase()
    .split(' ')
    .slice(0, 5)
    .join('-')
    .replace(/[^a-z0-9-]/g, '');
  return `/${sectionOf(i)}/${slug}-${i}`;
}

/** Page index of a path, or undefined when the path is not a page of a site of this size. */
export function indexOf(path: string, size: number): number | undefined {
  if (path === '/') return 0;
  const front = SECTIONS.indexOf(path.slice(1, -1) as (typeof SECTIONS)[number]);
  if (front >= 0 && path.endsWith('/') && size > front + 1) return front + 1;
  const m = /-(\d{1,9})$/.exec(path);
  if (!m) return undefined;
  const i = Number(m[1]);
  return i < size && pathOf(i) === path ? i : undefined;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A minified-bundle-looking blob; pages slice their inline scripts from it (real pages carry 20–60 KB of inline
 * JS/JSON).
 */
const BUNDLE = ((): string => {
  const r = prng(SEED + 7);
  const parts: string[] = [];
  let size = 0;
  while (size < 160_000) {
    const id = () => String.fromCharCode(97 + int(r, 0, 25)) + int(r, 0, 99);
    const p =
      pick(r, [
        `function ${id()}(${id()},${id()}){return ${id()}.${pick(r, WORDS)}(${id()})||${int(r, 0, 999)}}`,
        `var ${id()}={${pick(r, WORDS)}:"${words(r, 3)}",${pick(r, WORDS)}:${int(r, 0, 9999)},${pick(r, WORDS)}:[${int(r, 0, 9)},${int(r, 0, 9)}]};`,
        `if(${id()}<${int(r, 0, 500)}){${id()}.push({id:${int(r, 0, 1e6)},t:"${words(r, 2)}"})}`,
        `${id()}.addEventListener("${pick(r, ['click', 'scroll', 'load', 'resize'])}",function(e){${id()}(e.target,${int(r, 0, 99)})});`,
      ]) + (r() < 0.2 ? '\n' : '');
    parts.push(p);
    size += p.length;
  }
  return parts.join('');
})();

const CSS = ((): string => {
  const r = prng(SEED + 3);
  const rules: string[] = [];
  for (let k = 0; k < 90; k++) {
    rules.push(
      `.${pick(r, WORDS)}-${pick(r, WORDS)} .${pick(r, WORDS)}{margin:${int(r, 0, 24)}px ${int(r, 0, 24)}px;padding:${int(r, 0, 16)}px;color:#${int(r, 0x100000, 0xffffff).toString(16)};font-size:${int(r, 11, 22)}px}`,
    );
  }
  return rules.join('\n');
})();

const NAV = ((): number[] => {
  // Home, the 8 section fronts and 21 "popular" pages: the same 30 links on every page.
  const out = [0];
  for (let s = 1; s <= SECTIONS.length; s++) out.push(s);
  for (let k = 0; k < 21; k++) out.push(9 + k * 3);
  return out;
})();
const FOOTER = Array.from({ length: 20 }, (_, k) => 100 + k * 7);

function link(j: number, text?: string, cls?: string): string {
  return `<a${cls ? ` class="${cls}"` : ''} href="${pathOf(j)}">${escapeHtml(text ?? titleOf(j))}</a>`;
}

function inline(r: Rand, size: number, budget: { links: number }): string {
  // One sentence-ish run with inline markup; links draw on the page's budget of random targets.
  const n = int(r, 10, 22);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const roll = r();
    if (roll < 0.05 && budget.links > 0) {
      budget.links--;
      out.push(link(int(r, 0, size - 1), words(r, int(r, 2, 4))));
    } else if (roll < 0.09) out.push(`<em>${words(r, int(r, 1, 3))}</em>`);
    else if (roll < 0.12) out.push(`<strong>${words(r, int(r, 1, 3))}</strong>`);
    else if (roll < 0.13) out.push(`<code>${pick(r, WORDS)}()</code>`);
    else out.push(pick(r, WORDS));
  }
  return `${capitalize(out.join(' '))}.`;
}

function paragraph(r: Rand, size: number, budget: { links: number }): string {
  const sentences: string[] = [];
  const n = int(r, 3, 7);
  for (let k = 0; k < n; k++) sentences.push(inline(r, size, budget));
  return `<p>${sentences.join(' ')}</p>`;
}

function codeBlock(r: Rand): string {
  const lines: string[] = [];
  for (let k = int(r, 4, 14); k > 0; k--) {
    lines.push(
      `${'  '.repeat(int(r, 0, 2))}const ${pick(r, WORDS)} = await ${pick(r, WORDS)}.${pick(r, WORDS)}(${int(r, 0, 100)}); // ${words(r, 3)}`,
    );
  }
  return `<pre><code class="language-js">${escapeHtml(lines.join('\n'))}</code></pre>`;
}

function table(r: Rand): string {
  const cols = int(r, 3, 5);
  const head = Array.from({ length: cols }, () => `<th>${capitalize(pick(r, WORDS))}</th>`).join('');
  const rows: string[] = [];
  for (let k = int(r, 4, 10); k > 0; k--) {
    rows.push(
      `<tr>${Array.from({ length: cols }, (_, c) => `<td>${c === 0 ? capitalize(words(r, 2)) : int(r, 1, 9999)}</td>`).join('')}</tr>`,
    );
  }
  return `<table class="data-table"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function comment(r: Rand, i: number, k: number): string {
  const name = `${pick(r, FIRST)} ${pick(r, LAST)}`;
  return (
    `<div class="comment" id="c-${i}-${k}"><div class="comment-meta"><img class="avatar" src="/static/avatars/${int(r, 1, 400)}.png" alt="" width="32" height="32">` +
    `<span class="comment-author">${name}</span> <time class="comment-date">2026-0${int(r, 1, 9)}-1${int(r, 0, 9)}</time></div>` +
    `<div class="comment-body"><p>${capitalize(words(r, int(r, 8, 40)))}.</p></div>` +
    `<div class="comment-actions"><button class="btn-reply" type="button">Reply</button> <button class="btn-like" type="button">Like <span class="count">${int(r, 0, 80)}</span></button></div></div>`
  );
}

/** HTML of page i of a site with `size` pages (size >= 200). */
export function renderPage(i: number, size: number): string {
  const r = prng(SEED ^ Math.imul(i + 1, 0x85ebca6b));
  const title = titleOf(i);
  const section = sectionOf(i);
  const path = pathOf(i);
  const author = `${pick(r, FIRST)} ${pick(r, LAST)}`;
  const date = `2026-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')}`;
  const description = `${capitalize(words(r, int(r, 14, 26)))}.`;
  const target = int(r, 30_000, 100_000);
  const h: string[] = [];

  h.push(
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">`,
    `<title>${escapeHtml(title)} | Synthetic Times</title>`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta name="description" content="${escapeHtml(description)}">`,
    `<meta name="keywords" content="${words(r, 6).split(' ').join(', ')}">`,
    `<meta name="author" content="${author}"><meta name="robots" content="index, follow">`,
    `<link rel="canonical" href="${path}">`,
    `<meta property="og:type" content="article"><meta property="og:site_name" content="Synthetic Times">`,
    `<meta property="og:title" content="${escapeHtml(title)}"><meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${path}"><meta property="og:image" content="/static/img/og-${i}.jpg">`,
    `<meta name="twitter:card" content="summary_large_image"><meta name="twitter:title" content="${escapeHtml(title)}">`,
    `<meta property="article:published_time" content="${date}T08:00:00Z"><meta property="article:section" content="${section}">`,
    `<link rel="stylesheet" href="/static/main.css"><link rel="icon" href="/favicon.ico">`,
    `<style>${CSS.slice(0, int(r, 2000, CSS.length))}</style>`,
    `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: title, author: { '@type': 'Person', name: author }, datePublished: date, description })}</script>`,
    `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config","G-${int(r, 100000, 999999)}",{page_path:"${path}",section:"${section}"});</script>`,
    `</head><body class="section-${section} page-${i}">`,
    `<a class="skip-link" href="#content">Skip to content</a>`,
    `<div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience. ${words(r, 12)}.</p><button type="button">Accept</button><button type="button">Settings</button></div>`,
  );

  // Header: logo, 30-link menu, search.
  h.push(
    `<header class="site-header"><div class="container"><a class="logo" href="/"><img src="/static/logo.svg" alt="Synthetic Times" width="160" height="40"></a>`,
  );
  h.push(`<nav class="main-nav" aria-label="Main"><ul class="menu">`);
  for (const j of NAV)
    h.push(
      `<li class="menu-item"><a class="menu-link" href="${pathOf(j)}"><span>${escapeHtml(j <= SECTIONS.length ? (titleOf(j).split(':')[0] as string) : titleOf(j).split(' ').slice(0, 3).join(' '))}</span></a></li>`,
    );
  h.push(
    `</ul></nav><form class="search" action="/search" method="get"><label for="q" class="sr-only">Search</label><input id="q" name="q" type="search" placeholder="Search"><button type="submit">Search</button></form></div></header>`,
  );
  h.push(
    `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li>${link(i <= SECTIONS.length ? Math.max(0, i) : SECTIONS.indexOf(section as (typeof SECTIONS)[number]) + 1, capitalize(section))}</li><li aria-current="page">${escapeHtml(title)}</li></ol></nav>`,
  );

  // Main column: the article.
  const budget = { links: int(r, 8, 20) };
  h.push(`<div class="layout"><main id="content" class="content"><article class="post">`);
  h.push(
    `<header class="post-header"><h1 class="post-title">${escapeHtml(title)}</h1><p class="byline">By <span class="author">${author}</span> · <time datetime="${date}">${date}</time> · <a href="#comments">Comments</a></p></header>`,
  );
  h.push(
    `<figure class="lead-image"><img src="/static/img/${i}.jpg" alt="${escapeHtml(words(r, 5))}" width="1200" height="675" loading="lazy"><figcaption>${capitalize(words(r, 10))}.</figcaption></figure>`,
  );
  h.push(`<div class="post-body">`);
  const paragraphs = int(r, 5, 20);
  const listAt = int(r, 1, paragraphs - 1);
  const hasTable = r() < 0.3;
  const hasCode = section === 'docs' ? r() < 0.9 : r() < 0.15;
  for (let p = 0; p < paragraphs; p++) {
    if (p > 0 && p % 4 === 0) h.push(`<h2>${capitalize(words(r, int(r, 3, 7)))}</h2>`);
    h.push(paragraph(r, size, budget));
    if (p === listAt) {
      const tag = r() < 0.5 ? 'ul' : 'ol';
      h.push(
        `<${tag}>${Array.from({ length: int(r, 3, 8) }, () => `<li>${capitalize(words(r, int(r, 3, 12)))}</li>`).join('')}</${tag}>`,
      );
    }
    if (p === 2 && hasTable) h.push(table(r));
    if (p === 3 && hasCode) h.push(codeBlock(r));
    if (p === 1 && r() < 0.4)
      h.push(
        `<blockquote><p>${capitalize(words(r, int(r, 10, 30)))}.</p><cite>${pick(r, FIRST)} ${pick(r, LAST)}</cite></blockquote>`,
      );
    if (p % 5 === 2)
      h.push(
        `<div class="ad-slot" data-slot="${int(r, 1000, 9999)}"><span class="ad-label">Advertisement</span><script>(window.ads=window.ads||[]).push({slot:${int(r, 1000, 9999)}})</script></div>`,
      );
  }
  // Remaining random links, so every page has its share even with few paragraphs.
  while (budget.links > 0) {
    budget.links--;
    h.push(`<p>Read also: ${link(int(r, 0, size - 1))}.</p>`);
  }
  h.push(
    `</div><footer class="post-footer"><div class="tags">Tags: ${link(SECTIONS.indexOf(section as (typeof SECTIONS)[number]) + 1, section, 'tag')}</div>`,
  );
  h.push(
    `<div class="share"><a href="https://twitter.com/intent/tweet?url=${encodeURIComponent(path)}" rel="noopener">Share on X</a> <a href="https://www.facebook.com/sharer.php?u=${encodeURIComponent(path)}" rel="noopener">Share on Facebook</a></div></footer></article>`,
  );

  // Related articles: the tree links that make the whole site reachable.
  h.push(`<section class="related"><h2>Related articles</h2><div class="cards">`);
  for (let c = i * 10 + 1; c <= i * 10 + 10 && c < size; c++) {
    h.push(
      `<div class="card"><a class="card-link" href="${pathOf(c)}"><img src="/static/img/t${c}.jpg" alt="" width="300" height="170"><h3>${escapeHtml(titleOf(c))}</h3></a><p class="excerpt">${capitalize(words(r, 14))}…</p><span class="meta">${capitalize(sectionOf(c))}</span></div>`,
    );
  }
  h.push(`</div></section>`);

  h.push(`<section class="comments" id="comments"><h2>Comments</h2>`);
  for (let k = int(r, 0, 25); k > 0; k--) h.push(comment(r, i, k));
  h.push(`</section></main>`);

  // Sidebar: most read (random), newsletter, tag cloud, ad.
  h.push(`<aside class="sidebar"><div class="widget most-read"><h3>Most read</h3><ol>`);
  for (let k = 0; k < 6; k++) h.push(`<li>${link(int(r, 0, size - 1))}</li>`);
  h.push(
    `</ol></div><div class="widget newsletter"><h3>Newsletter</h3><p>${capitalize(words(r, 12))}.</p><form action="/subscribe" method="post"><input type="email" name="email" placeholder="you@example.com"><button type="submit">Subscribe</button></form></div>`,
  );
  h.push(
    `<div class="widget tag-cloud"><h3>Topics</h3>${Array.from({ length: 15 }, () => `<span class="tag size-${int(r, 1, 5)}">${pick(r, WORDS)}</span>`).join(' ')}</div>`,
  );
  h.push(
    `<div class="widget ad-slot"><span class="ad-label">Advertisement</span><iframe src="about:blank" title="ad" width="300" height="250"></iframe></div></aside></div>`,
  );

  // Footer: 20 fixed links in 4 columns, social, copyright.
  h.push(`<footer class="site-footer"><div class="footer-columns">`);
  for (let col = 0; col < 4; col++) {
    h.push(`<div class="footer-col"><h4>${capitalize(pick(r, WORDS))}</h4><ul>`);
    for (const j of FOOTER.slice(col * 5, col * 5 + 5))
      h.push(
        `<li>${link(
          j % size,
          titleOf(j % size)
            .split(' ')
            .slice(0, 3)
            .join(' '),
        )}</li>`,
      );
    h.push(`</ul></div>`);
  }
  h.push(
    `</div><div class="social"><a href="https://twitter.com/synthetic">X</a> <a href="https://www.instagram.com/synthetic">Instagram</a> <a href="https://www.youtube.com/@synthetic">YouTube</a></div>`,
  );
  h.push(`<p class="copyright">© 2026 Synthetic Times. All rights reserved. ${words(r, 8)}.</p></footer>`);

  // Inline scripts up to the page's target size, as bundlers and analytics leave them.
  const sofar = h.reduce((n, s) => n + s.length, 0) + 40;
  const pad = Math.max(200, target - sofar);
  const at = int(r, 0, BUNDLE.length - pad - 1);
  h.push(`<script>${BUNDLE.slice(Math.max(0, at), Math.max(0, at) + pad)}</script>`);
  h.push(`</body></html>\n`);
  return h.join('');
}
