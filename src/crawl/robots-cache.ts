// robots.txt per origin, fetched once and kept for a while, shared by all crawls of this process.
import { fetchPage, FetchError } from '../scrape/fetch/index.js';
import { allowAllRobots, disallowAllRobots, parseRobots, robotsUrlFor, type RobotsRules } from './scope/index.js';

interface Entry {
  rules: Promise<RobotsRules>;
  expiresAt: number;
}

export interface RobotsCacheOptions {
  userAgent: string;
  allowPrivateAddresses: boolean;
  ttlMs?: number;
  timeoutMs?: number;
  maxEntries?: number;
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: RobotsCacheOptions) {}

  /** The rules of the origin of `url`; concurrent callers share one fetch. */
  rulesFor(url: string, proxy?: string): Promise<RobotsRules> {
    const robotsUrl = robotsUrlFor(url);
    const key = `${robotsUrl} ${proxy ?? ''}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.rules;
    const rules = this.load(robotsUrl, proxy);
    this.entries.set(key, { rules, expiresAt: now + (this.options.ttlMs ?? 3_600_000) });
    if (this.entries.size > (this.options.maxEntries ?? 10_000)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return rules;
  }

  private async load(robotsUrl: string, proxy?: string): Promise<RobotsRules> {
    try {
      const page = await fetchPage({
        url: robotsUrl,
        timeoutMs: this.options.timeoutMs ?? 10_000,
        proxy,
        allowPrivateAddresses: this.options.allowPrivateAddresses,
        maxBytes: 512 * 1024,
        maxRedirects: 5,
        userAgent: this.options.userAgent,
      });
      // RFC 9309: 4xx means no rules; 5xx means the site is unavailable, so crawl nothing.
      if (page.statusCode >= 500) {
        return disallowAllRobots({ code: 'ROBOTS_UNAVAILABLE', message: `${robotsUrl} answered HTTP ${page.statusCode}: nothing is crawled while robots.txt is unavailable (RFC 9309)` });
      }
      if (page.statusCode >= 400) return allowAllRobots();
      return parseRobots(robotsUrl, page.body, this.options.userAgent);
    } catch (error) {
      // A robots.txt served as a binary type is no rules at all; other failures mean unreachable.
      if (error instanceof FetchError && error.code === 'UNSUPPORTED_CONTENT_TYPE') return allowAllRobots();
      // The fetch's own code (BLOCKED_ADDRESS, DNS_FAILURE, TIMEOUT…): the page's failure says why.
      const code = error instanceof FetchError ? error.code : 'NETWORK_ERROR';
      const message = error instanceof Error ? error.message : String(error);
      return disallowAllRobots({ code, message: `${robotsUrl} could not be fetched: ${message}` });
    }
  }
}
