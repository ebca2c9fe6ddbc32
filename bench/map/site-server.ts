// Child-process entry: a site whose robots.txt names a sitemap index of SITEMAPS sitemaps x PER urls (every third
// gzipped as a file); prints {"port"} once listening.
import http from 'node:http';
import { gzipSync } from 'node:zlib';

const sitemaps = Number(process.argv[2] ?? 50);
const per = Number(process.argv[3] ?? 1000);

const bodies = new Map<string, { type: string; body: Buffer }>();
let base = '';
function build(): void {
  const names: string[] = [];
  for (let i = 0; i < sitemaps; i++) {
    const gz = i % 3 === 0;
    const name = `/sitemaps/s${i}.xml${gz ? '.gz' : ''}`;
    names.push(name);
    const rows = Array.from(
      { length: per },
      (_, j) => `  <url><loc>${base}/articles/${i}/${j}-a-fairly-usual-slug</loc><lastmod>2026-01-01</lastmod></url>`,
    );
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows.join('\n')}\n</urlset>\n`;
    bodies.set(
      name,
      gz ? { type: 'application/gzip', body: gzipSync(xml) } : { type: 'application/xml', body: Buffer.from(xml) },
    );
  }
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${names
    .map((n) => `  <sitemap><loc>${base}${n}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;
  bodies.set('/sitemap-index.xml', { type: 'application/xml', body: Buffer.from(index) });
  bodies.set('/robots.txt', {
    type: 'text/plain',
    body: Buffer.from(`User-agent: *\nSitemap: ${base}/sitemap-index.xml\n`),
  });
  bodies.set('/', {
    type: 'text/html',
    body: Buffer.from(
      '<!DOCTYPE html><html><head><title>Bench</title></head><body><a href="/about">About</a></body></html>',
    ),
  });
}

const server = http.createServer((req, res) => {
  const found = bodies.get(req.url ?? '/');
  if (!found) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length }).end(found.body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  build();
  let bytes = 0;
  for (const b of bodies.values()) bytes += b.body.length;
  process.stdout.write(`${JSON.stringify({ port, bytes })}\n`);
});
