// Canonical form of a crawlable URL, so that one page has one string for de-duplication.

const HTTP_PROTOCOLS = new Set(['http:', 'https:']);

/** Percent-escapes in a path; `g` so every escape is visited in one pass. */
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/g;

/** RFC 3986 unreserved characters: escaping them never changes what the URL means (section 2.3). */
function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e // - . _ ~
  );
}

/**
 * Decodes escaped unreserved characters and upper-cases the hex of the others (RFC 3986 6.2.2.1-2).
 * WHATWG URL keeps escapes exactly as written, so `%7e`, `%7E` and `~` would otherwise be three pages.
 */
export function normalizePathEscapes(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(PERCENT_ESCAPE, (escape) => {
    const code = Number.parseInt(escape.slice(1), 16);
    return isUnreserved(code) ? String.fromCharCode(code) : escape.toUpperCase();
  });
}

function parse(raw: string, base: string | undefined): URL | undefined {
  if (base !== undefined) {
    try {
      return new URL(raw, base);
    } catch {
      // A broken base must not hide an absolute link that needs no base.
    }
  }
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * Normalized absolute URL string, or undefined when not a crawlable http(s) URL.
 * WHATWG URL already lower-cases scheme and host, drops the default port, resolves dot segments
 * (including `%2e`) and turns an empty path into `/`; this adds the fragment and escape rules.
 * The query is left exactly as written: parameter order and encoding can matter to the server.
 */
export function normalizeUrl(raw: string, base?: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const url = parse(raw, typeof base === 'string' ? base : undefined);
  if (url === undefined || !HTTP_PROTOCOLS.has(url.protocol) || url.hostname === '') return undefined;
  // Each setter re-serializes the whole URL, so only what can be there is cleared (most links have none).
  // A fragment can only come from `raw`, and an empty one (`#`) is invisible in `url.hash`.
  if (raw.includes('#')) url.hash = '';
  // The fetcher never sends `user:pass@`, so such a URL is the same page, and results must not leak it.
  if (url.username !== '') url.username = '';
  if (url.password !== '') url.password = '';
  const path = normalizePathEscapes(url.pathname);
  if (path !== url.pathname) url.pathname = path;
  return url.href;
}
