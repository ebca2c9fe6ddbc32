// GET /: where a person who opens the service in a browser lands (a small page), and what a
// program that asks for JSON gets (the same facts). Public: it names nothing secret.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const HOME_LINKS = {
  docs: '/docs',
  openapi: '/v1/openapi.json',
  health: '/health',
} as const;

const KEY_HOWTO = [
  'Send every /v1 request with the header Authorization: Bearer <API key>.',
  'The first start with no key prints one, once, on the console.',
  'More keys: npm run cli -- keys create --name <name> (each key is a separate owner), or the API_KEYS setting.',
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The q-value an Accept header gives a media type: its exact entry, else type/*, else *\/*. */
function quality(accept: string, mediaType: string): number {
  const [major] = mediaType.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const specificity = range === mediaType ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/** Whether the client prefers a page to JSON: browsers list text/html, programs JSON or *\/*. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (typeof accept !== 'string') return false;
  const html = quality(accept, 'text/html');
  return html > 0 && html > quality(accept, 'application/json');
}

function page(version: string): string {
  const v = escapeHtml(version);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>crawlservice ${v}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2rem}</style>
</head>
<body>
<h1>crawlservice <small>${v}</small></h1>
<p>Scrape pages, crawl sites, schedule tasks and receive signed webhooks, over a JSON API under <code>/v1</code>.</p>
<ul>
<li><a href="${HOME_LINKS.docs}">API reference</a> (the OpenAPI 3 document: <a href="${HOME_LINKS.openapi}">${HOME_LINKS.openapi}</a>)</li>
<li><a href="${HOME_LINKS.health}">Health</a> (readiness; <code>/health/live</code> for liveness)</li>
</ul>
<h2>API keys</h2>
<ul>
${KEY_HOWTO.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}
</ul>
</body>
</html>
`;
}

export function registerHome(app: FastifyInstance, version: string): void {
  const html = page(version);
  app.get('/', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    void reply.header('vary', 'Accept');
    if (wantsHtml(request)) {
      // A page of our own text only: nothing may load or run from it.
      void reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        .header('x-content-type-options', 'nosniff');
      return html;
    }
    return { success: true, name: 'crawlservice', version, links: HOME_LINKS, authentication: KEY_HOWTO };
  });
}
