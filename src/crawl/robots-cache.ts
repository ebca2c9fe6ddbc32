// robots.txt per origin, fetched once and kept for a while, shared by all crawls of this process.
import { chooseProxy, ProxyNotAllowedError, type ProxyPolicy, type Resolver } from '../net/address-guard.js';
import { fetchPage, FetchError } from '../fetch/index.js';
import { allowAllRobots, disallowAllRobots, parseRobots, robotsUrlFor, type RobotsRules } from './scope/index.js';

interface Entry {
  rules: Promise<RobotsRules>;
  expiresAt: number;
}

export interface RobotsCacheOptions {
  userAgent: string;
  allowPrivateAddresses: boolean;
  /** OUTBOUND_PROXY and REQUEST_PROXY_ALLOWLIST, applied to robots.txt as to the pages (see PipelineDeps.proxies). */
  proxies?: ProxyPolicy;
  /** Test hook: name resolution of the address guard; default DNS. */
  resolve?: Resolver;
  ttlMs?: number;
  timeoutMs?: number;
  maxEntries?: number;
}

/** Rules and whether they may be kept for the TTL. */
interface Loaded {
  rules: RobotsRules;
  keep: boolean;
}

/**
 * The proxy failed (or was refused by the address guard), so nothing is known about the site:
 * RFC 9309's "unreachable, assume disallow" is about the site's server, and reporting every page
 * as disallowed would hide the real reason. The page's own fetch goes through the same proxy and
 * fails with it. (A proxy named by the request could serve any robots.txt it likes anyway.)
 */
function isProxyFailure(error: unknown): boolean {
  if (!(error instanceof FetchError)) return false;
  if (error.code === 'PROXY_ERROR') return true;
  const cause: unknown = error.cause;
  return (
    error.code === 'BLOCKED_ADDRESS' &&
    typeof cause === 'object' &&
    cause !== null &&
    'role' in cause &&
    cause.role === 'proxy'
  );
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: RobotsCacheOptions) {}

  /** The rules of the origin of `url`; concurrent callers share one fetch. `proxy` is the request's own. */
  rulesFor(url: string, proxy?: string): Promise<RobotsRules> {
    const robotsUrl = robotsUrlFor(url);
    const key = `${robotsUrl} ${proxy ?? ''}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.rules;
    const loaded = this.load(robotsUrl, proxy);
    const entry: Entry = { rules: loaded.then((l) => l.rules), expiresAt: now + (this.options.ttlMs ?? 3_600_000) };
    this.entries.set(key, entry);
    void loaded.then((l) => {
      if (!l.keep && this.entries.get(key) === entry) this.entries.delete(key);
    });
    if (this.entries.size > (this.options.maxEntries ?? 10_000)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return entry.rules;
  }

  private async load(robotsUrl: string, requestProxy?: string): Promise<Loaded> {
    try {
      const proxy = chooseProxy(
        requestProxy,
        this.options.proxies ?? { allowlist: [], allowPrivate: this.options.allowPrivateAddresses },
      );
      const page = await fetchPage({
        url: robotsUrl,
        timeoutMs: this.options.timeoutMs ?? 10_000,
        proxy: proxy?.url,
        proxyAllowPrivate: proxy?.allowPrivate,
        allowPrivateAddresses: this.options.allowPrivateAddresses,
        maxBytes: 512 * 1024,
        maxRedirects: 5,
        userAgent: this.options.userAgent,
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      });
      // RFC 9309: 4xx means no rules; 5xx means the site is unavailable, so crawl nothing.
      if (page.statusCode >= 500) {
        return {
          rules: disallowAllRobots({
            code: 'ROBOTS_UNAVAILABLE',
            message: `${robotsUrl} answered HTTP ${page.statusCode}: nothing is crawled while robots.txt is unavailable (RFC 9309)`,
          }),
          keep: true,
        };
      }
      if (page.statusCode >= 400) return { rules: allowAllRobots(), keep: true };
      return { rules: parseRobots(robotsUrl, page.body, this.options.userAgent), keep: true };
    } catch (error) {
      // A robots.txt served as a binary type is no rules at all; other failures mean unreachable.
      if (error instanceof FetchError && error.code === 'UNSUPPORTED_CONTENT_TYPE')
        return { rules: allowAllRobots(), keep: true };
      // Not kept: the next page asks again, through the proxy, once it works.
      if (isProxyFailure(error) || error instanceof ProxyNotAllowedError)
        return { rules: allowAllRobots(), keep: false };
      // The fetch's own code (BLOCKED_ADDRESS, DNS_FAILURE, TIMEOUT…): the page's failure says why.
      const code = error instanceof FetchError ? error.code : 'NETWORK_ERROR';
      const message = error instanceof Error ? error.message : String(error);
      return {
        rules: disallowAllRobots({ code, message: `${robotsUrl} could not be fetched: ${message}` }),
        keep: true,
      };
    }
  }
}
