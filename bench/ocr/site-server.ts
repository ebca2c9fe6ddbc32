// Child-process entry serving the OCR crawl site on 127.0.0.1: an index linking N pages, each page showing a logo
// shared by all of them and an image of its own text (800×600). Prints {"port"} once listening.
import http from 'node:http';
import { drawImage } from './images.js';

const pages = Number(process.argv[2] ?? 200);
const logo = await drawImage('DejaVu Sans', 40, ['#ffffff', '#1b4d8c'], ['ACME Archive']);
const own = await Promise.all(
  Array.from({ length: pages }, (_, i) =>
    drawImage(
      'Liberation Serif',
      24,
      ['#ffffff', '#111111'],
      [`Record number ${10000 + i}`, 'Filed under the annual report', 'Approved by the archive office'],
    ),
  ),
);
const html = (body: string) => `<!doctype html><html><head><title>Archive</title></head><body>${body}</body></html>`;

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://site.invalid').pathname;
  const page = /^\/record\/(\d+)$/.exec(path);
  const image = /^\/img\/(\d+)\.png$/.exec(path);
  if (path === '/') {
    const links = Array.from({ length: pages }, (_, i) => `<li><a href="/record/${i}">Record ${i}</a></li>`).join('');
    res.writeHead(200, { 'content-type': 'text/html' }).end(html(`<h1>Records</h1><ul>${links}</ul>`));
  } else if (page && Number(page[1]) < pages) {
    const i = Number(page[1]);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        html(
          `<img src="/logo.png" alt="logo"><h1>Record ${i}</h1><p>The scanned record follows.</p><img src="/img/${i}.png" alt="scan ${i}">`,
        ),
      );
  } else if (path === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(logo);
  else if (image && own[Number(image[1])])
    res.writeHead(200, { 'content-type': 'image/png' }).end(own[Number(image[1])]);
  else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
