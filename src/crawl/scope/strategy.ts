// Crawl strategies: which discovered URLs belong to the same site as the seed.
import { getDomain } from 'tldts';

export type Strategy = 'all' | 'same-domain' | 'same-hostname' | 'same-origin';

export const STRATEGIES: readonly Strategy[] = ['all', 'same-domain', 'same-hostname', 'same-origin'];

/** Bounded, because a crawl with strategy `all` can meet an unbounded number of hosts. */
const DOMAIN_CACHE_LIMIT = 10_000;
const domainCache = new Map<string, string>();

/** `example.com.` is the same DNS name as `example.com`; links use both. */
function comparableHost(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/**
 * Registrable domain (public suffix list, private suffixes such as github.io included, so two
 * user sites there are two domains). Hosts with none (IP literals, `localhost`, single-label
 * intranet names, a bare public suffix) fall back to their hostname, so same-domain then means
 * same-hostname. Cached per host: tldts is fast, but this runs for every discovered link.
 */
export function siteKey(hostname: string): string {
  const host = comparableHost(hostname);
  const cached = domainCache.get(host);
  if (cached !== undefined) return cached;
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
  // Dropping everything is cheaper than LRU bookkeeping and the working set refills in a few links.
  if (domainCache.size >= DOMAIN_CACHE_LIMIT) domainCache.clear();
  domainCache.set(host, domain);
  return domain;
}

/** Port as a number-string with the scheme's default filled in, so `http://a` and `http://a:80` agree. */
function effectivePort(url: URL): string {
  if (url.port !== '') return url.port;
  return url.protocol === 'https:' ? '443' : '80';
}

/** Builds the strategy test for one seed. Both URLs must already be http(s). */
export function createStrategyFilter(seed: URL, strategy: Strategy): (url: URL) => boolean {
  switch (strategy) {
    case 'all':
      return () => true;
    case 'same-hostname': {
      const host = comparableHost(seed.hostname);
      return (url) => comparableHost(url.hostname) === host;
    }
    case 'same-domain': {
      const key = siteKey(seed.hostname);
      return (url) => siteKey(url.hostname) === key;
    }
    case 'same-origin': {
      const protocol = seed.protocol;
      const host = comparableHost(seed.hostname);
      const port = effectivePort(seed);
      return (url) => url.protocol === protocol && comparableHost(url.hostname) === host && effectivePort(url) === port;
    }
    default: {
      const unknown: never = strategy;
      throw new TypeError(`unknown crawl strategy: ${String(unknown)}`);
    }
  }
}
