// Child-process entry serving the JavaScript-rendered benchmark site on 127.0.0.1 (port 0); prints {"port"} once
// listening.
import http from 'node:http';
import { APP_CSS, APP_JS, renderAppPage } from './site.js';

const size = Number(process.argv[2] ?? 200);
// A 1x1 PNG: the engines block images unless a screenshot is asked for, so few should be requested.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const counts = { pages: 0, scripts: 0, images: 0, other: 0 };

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://site.invalid').pathname;
  if (path === '/__bench/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
    return;
  }
  const page = path === '/' ? 0 : /^\/p\/(\d+)$/.exec(path)?.[1];
  if (page !== undefined && Number(page) < size) {
    counts.pages++;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(renderAppPage(Number(page), size));
  } else if (path === '/app.js') {
    counts.scripts++;
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=3600' }).end(APP_JS);
  } else if (path === '/app.css') {
    counts.other++;
    res.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'max-age=3600' }).end(APP_CSS);
  } else if (path.startsWith('/img/')) {
    counts.images++;
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  } else {
    counts.other++;
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
