// robots.txt rules for one origin (RFC 9309), on top of robots-parser.
import robotsParserModule from 'robots-parser';

// The package is CommonJS (`module.exports = fn`) but its types declare an ES default export, so
// under NodeNext TypeScript types the default import as `{ default: fn }` while at run time it is fn.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** robots.txt for one origin. */
export interface RobotsRules {
  isAllowed(url: string): boolean; // for the configured user agent
  crawlDelayMs(): number | undefined; // Crawl-delay in ms for that agent, if any
  sitemaps(): string[];
  /** Set when everything is disallowed because robots.txt could not be had: why, for the crawl's status. */
  unavailable?: { code: string; message: string };
}

/** RFC 9309 2.5: crawlers must parse at least 500 KiB; Google ignores what comes after that. */
export const MAX_ROBOTS_CHARS = 500 * 1024;

const TOKEN = /^[A-Za-z_-][A-Za-z0-9_-]*/;
const COMPATIBLE = /\bcompatible;\s*([^;)]*)/i;

/**
 * The product token robots.txt groups are matched by (RFC 9309 2.2.1), lower-cased as robots-parser
 * keys its groups. robots-parser would take everything before the first `/`, which turns a
 * browser-like `Mozilla/5.0 (compatible; CrawlService/0.1; ...)` into `mozilla`; this finds
 * `crawlservice`. A plain browser string names no crawler and gets `*`.
 */
export function productToken(userAgent: string): string {
  const compatible = COMPATIBLE.exec(userAgent)?.[1];
  const candidate = compatible ?? userAgent.trim();
  const token = TOKEN.exec(candidate)?.[0]?.toLowerCase();
  if (token === undefined || token === 'mozilla') return '*';
  return token;
}

/** robots-parser only answers for URLs of the robots.txt's own origin; this is the origin's path key. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function absoluteSitemaps(robotsUrl: string, listed: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of listed) {
    try {
      const url = new URL(entry, robotsUrl);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !out.includes(url.href)) out.push(url.href);
    } catch {
      // An unusable Sitemap line is ignored, as crawlers ignore any line they cannot parse.
    }
  }
  return out;
}

/**
 * Groups are chosen by the user agent's product token, falling back to `*` (robots-parser merges
 * repeated groups and picks the longest match, allow winning ties, as RFC 9309 says).
 * A URL of another origin is not governed by this file and is allowed: its own robots.txt decides.
 */
export function parseRobots(robotsUrl: string, body: string, userAgent: string): RobotsRules {
  let text = body.length > MAX_ROBOTS_CHARS ? body.slice(0, MAX_ROBOTS_CHARS) : body;
  // robots-parser would read a byte-order mark as part of the first field name and lose that line.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const robots = robotsParser(robotsUrl, text);
  const agent = productToken(userAgent);
  const origin = originOf(robotsUrl);
  const delaySeconds = robots.getCrawlDelay(agent);
  const delayMs =
    delaySeconds !== undefined && Number.isFinite(delaySeconds) && delaySeconds >= 0
      ? Math.round(delaySeconds * 1000)
      : undefined;
  const sitemaps = absoluteSitemaps(robotsUrl, robots.getSitemaps());
  return {
    isAllowed(url: string): boolean {
      if (origin === undefined || originOf(url) !== origin) return true;
      return robots.isAllowed(url, agent) ?? true;
    },
    crawlDelayMs: () => delayMs,
    sitemaps: () => [...sitemaps],
  };
}

/** robots.txt answered 4xx (404 included): RFC 9309 2.3.1.3 says crawl as if there were no file. */
export function allowAllRobots(): RobotsRules {
  return { isAllowed: () => true, crawlDelayMs: () => undefined, sitemaps: () => [] };
}

/** robots.txt answered 5xx or could not be reached: RFC 9309 2.3.1.4 says assume complete disallow. */
export function disallowAllRobots(unavailable?: RobotsRules['unavailable']): RobotsRules {
  return {
    isAllowed: () => false,
    crawlDelayMs: () => undefined,
    sitemaps: () => [],
    ...(unavailable ? { unavailable } : {}),
  };
}

/** The robots.txt URL of a page's origin. Throws TypeError for anything but an http(s) URL. */
export function robotsUrlFor(url: string): string {
  const origin = originOf(url);
  if (origin === undefined) throw new TypeError(`not an http(s) URL: ${JSON.stringify(url)}`);
  return `${origin}/robots.txt`;
}
