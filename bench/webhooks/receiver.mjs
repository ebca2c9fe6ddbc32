// Benchmark receiver (its own process): answers 200 at once and reports each delivery's delay from its event.
import { createServer } from 'node:http';

const delays = [];
let received = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const now = performance.timeOrigin + performance.now();
    received++;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (typeof body.sent_at_ms === 'number') delays.push(now - body.sent_at_ms);
    } catch {
      // not a benchmark event
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
process.on('message', (msg) => {
  if (msg === 'report') process.send({ received, delays });
  if (msg === 'reset') {
    received = 0;
    delays.length = 0;
  }
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
