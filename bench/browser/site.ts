// The benchmark's JavaScript-rendered site: every page is an app shell whose script builds the article and its links.
import { prng } from '../crawl/site.js';

const WORDS =
  'browser render script page content article paragraph crawler service markdown engine chromium network request response layout style image link section title heading list table code example result data value'.split(
    ' ',
  );

function sentence(rand: () => number): string {
  const n = 8 + Math.floor(rand() * 12);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Page i of `size`: links to pages 3i+1..3i+3 (the whole site within 5 hops) and to 3 random pages. */
export function renderAppPage(i: number, size: number): string {
  const rand = prng(i + 1);
  const children = [3 * i + 1, 3 * i + 2, 3 * i + 3].filter((c) => c < size);
  const random = Array.from({ length: 3 }, () => Math.floor(rand() * size));
  const data = {
    title: `Article ${i}`,
    paragraphs: Array.from({ length: 6 + Math.floor(rand() * 10) }, () =>
      Array.from({ length: 3 }, () => sentence(rand)).join(' '),
    ),
    links: [...children, ...random].map((n) => `/p/${n}`),
    image: `/img/${i}.png`,
  };
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title>
<link rel="stylesheet" href="/app.css"><script src="/app.js" defer></script></head>
<body><header><nav><a href="/p/0">Home</a> <a href="/p/1">One</a> <a href="/p/2">Two</a></nav></header><div id="root"></div>
<script type="application/json" id="data">${JSON.stringify(data)}</script></body></html>`;
}

/** The shared script: renders the article from the page's JSON after a short async step, as an app would. */
export const APP_JS = `
(async () => {
  const data = JSON.parse(document.getElementById('data').textContent);
  await new Promise((r) => setTimeout(r, 20));
  const root = document.getElementById('root');
  const article = document.createElement('article');
  article.innerHTML = '<h1></h1>';
  article.querySelector('h1').textContent = data.title;
  const img = document.createElement('img');
  img.src = data.image; img.alt = data.title;
  article.appendChild(img);
  for (const text of data.paragraphs) { const p = document.createElement('p'); p.textContent = text; article.appendChild(p); }
  const ul = document.createElement('ul');
  for (const href of data.links) { const li = document.createElement('li'); const a = document.createElement('a'); a.href = href; a.textContent = 'Read ' + href; li.appendChild(a); ul.appendChild(li); }
  article.appendChild(ul);
  root.appendChild(article);
})();
`;

export const APP_CSS =
  'body{font-family:sans-serif;max-width:60em;margin:auto} article img{width:320px;height:180px;display:block}';
