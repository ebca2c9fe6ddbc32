// Redirect rules: which answers are redirects, where they point, and which headers may follow them.

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function isRedirectStatus(statusCode: number): boolean {
  return REDIRECT_STATUSES.has(statusCode);
}

/** Resolves a Location against the URL that answered with it; null when it is not a URL at all. */
export function resolveLocation(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

// Credentials the caller set for one site must not be handed to whatever site it redirects to.
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export function headersForHop(headers: Record<string, string>, from: URL, to: URL): Record<string, string> {
  if (from.origin === to.origin) return headers;
  const kept = { ...headers };
  for (const name of CREDENTIAL_HEADERS) delete kept[name];
  return kept;
}
