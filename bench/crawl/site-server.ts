// Child-process entry serving the synthetic site on 127.0.0.1 (port 0); prints {"port"} once listening.
import http from 'node:http';
import { indexOf, renderPage } from './site.js';

const size = Number(process.argv[2] ?? 6000);
if (!Number.isInteger(size) || size < 200)
  throw new Error(`site size must be an integer >= 200, got ${process.argv[2]}`);

// Open connections: how many parallel connections each crawler really kept (requests themselves are
// answered synchronously, so in-flight requests would always read 1).
let open = 0;
let maxOpen = 0;
let requests = 0;
let bytes = 0;
let notFound = 0;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://site.invalid');
  if (url.pathname === '/__bench/stats') {
    const body = JSON.stringify({ requests, maxOpen, bytes, notFound, cpu: process.cpuUsage() });
    if (url.searchParams.has('reset')) {
      requests = 0;
      maxOpen = open;
      bytes = 0;
      notFound = 0;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    return;
  }
  requests++;
  const i = indexOf(url.pathname, size);
  if (i === undefined) {
    // robots.txt included: the benchmark site has none.
    notFound++;
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  const body = Buffer.from(renderPage(i, size), 'utf8');
  bytes += body.length;
  res
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
    })
    .end(body);
});
server.on('connection', (socket) => {
  open++;
  if (open > maxOpen) maxOpen = open;
  socket.once('close', () => open--);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
