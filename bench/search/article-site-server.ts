// Child-process entry serving a site of real article pages on 127.0.0.1 (port 0); prints {"port"} once listening.
// Page /a/<n> (and / for n = 0) is article n mod 91 of the shared article-extraction set, its own links disabled (they
// point at the articles' sites or at paths this server does not have) and five links to /a/<5n+1..5n+5> added, so that
// a crawl from / reaches `size` distinct pages of realistic markup and text.
import http from 'node:http';
import { loadPages } from '../lib/pages.js';

const size = Number(process.argv[2] ?? 5000);
if (!Number.isInteger(size) || size < 10) throw new Error(`site size must be an integer >= 10, got ${process.argv[2]}`);

const articles = loadPages().map((p) => p.html.replace(/\shref\s*=/gi, ' data-href='));

function pageOf(n: number): Buffer {
  const html = articles[n % articles.length] as string;
  const links = [1, 2, 3, 4, 5]
    .map((k) => 5 * n + k)
    .filter((i) => i < size)
    .map((i) => `<a href="/a/${i}">Next article ${i}</a>`)
    .join(' ');
  const nav = `<nav>${links}</nav>`;
  const at = html.search(/<\/body>/i);
  return Buffer.from(at >= 0 ? `${html.slice(0, at)}${nav}${html.slice(at)}` : `${html}${nav}`, 'utf8');
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://site.invalid');
  const match = url.pathname === '/' ? ['', '0'] : /^\/a\/(\d{1,7})$/.exec(url.pathname);
  const n = match ? Number(match[1]) : Number.NaN;
  if (!(n >= 0 && n < size)) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  const body = pageOf(n);
  res
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
    })
    .end(body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
