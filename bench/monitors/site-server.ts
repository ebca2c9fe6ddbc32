// The site the monitor benchmark watches, in a process of its own (forked by due-minute.ts, so that serving the pages
// costs the measured process no CPU): `/article/<n>` for n in [0, count), a small distinct article each. Every answer
// carries the time it was made, as an ISO date-time and a clock time inside the article, noise that a monitor must
// mask; a page named in a `{ change: [n, ...] }` message gains a paragraph with a new sentence and a number, a real
// change. Messages: `{ count }` (re)starts with that many unchanged pages; `{ change }` edits pages; both answer
// `{ ok }`. Sends `{ port }` once listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const WORDS = [
  'harbour',
  'ledger',
  'copper',
  'orchard',
  'signal',
  'lantern',
  'meadow',
  'furnace',
  'quarry',
  'compass',
  'timber',
  'beacon',
  'granite',
  'valley',
  'archive',
  'kettle',
  'marble',
  'rudder',
  'saddle',
  'thistle',
  'willow',
  'anchor',
  'bramble',
  'cinder',
];
const VERBS = ['restores', 'measures', 'carries', 'shelters', 'records', 'guards', 'follows', 'names'];

/** A deterministic sentence: distinct per page and paragraph, ordinary prose to the extractor. */
function sentence(page: number, paragraph: number, k: number): string {
  const w = (i: number) => WORDS[(page * 7 + paragraph * 5 + k * 3 + i * 11) % WORDS.length] as string;
  const v = VERBS[(page + paragraph + k) % VERBS.length] as string;
  return `The ${w(0)} of district ${page} ${v} the old ${w(1)} near the ${w(2)}, as the ${w(3)} guild wrote in its ${paragraph + 1}${['st', 'nd', 'rd'][paragraph] ?? 'th'} report.`;
}

let count = 0;
/** Edits per page: 0 for an unchanged page. */
let edits = new Map<number, number>();

function article(n: number): string {
  const now = new Date();
  const paragraphs = [0, 1, 2].map((p) => [0, 1, 2].map((k) => sentence(n, p, k)).join(' '));
  for (let e = 1; e <= (edits.get(n) ?? 0); e++)
    paragraphs.push(
      `Update ${e}: the ${WORDS[(n + e) % WORDS.length]} committee of district ${n} approved ${100 + n * 3 + e} new permits this week.`,
    );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>District ${n} news</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<main><article><h1>District ${n}: the ${WORDS[n % WORDS.length]} report</h1>
<p class="meta">Updated ${now.toISOString()}; page made at ${now.toTimeString().slice(0, 8)}</p>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</article></main>
<footer><p>District news, a local paper. Served at ${now.toISOString()}.</p></footer>
</body></html>`;
}

const server = createServer((req, res) => {
  const match = /^\/article\/(\d+)$/.exec(req.url ?? '');
  const n = match ? Number(match[1]) : -1;
  if (n < 0 || n >= count) {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article(n));
});
server.keepAliveTimeout = 60_000;

process.on('message', (message: { count?: number; change?: number[] }) => {
  if (message.count !== undefined) {
    count = message.count;
    edits = new Map();
  }
  for (const n of message.change ?? []) edits.set(n, (edits.get(n) ?? 0) + 1);
  process.send?.({ ok: true });
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
