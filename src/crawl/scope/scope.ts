// A crawl's scope: which discovered links are visited and which visited pages are saved.
import { normalizeUrl } from './normalize-url.js';
import { hasNonHtmlExtension } from './non-html.js';
import { compilePatterns, MatchSubject, type PatternSet } from './path-pattern.js';
import { compileRegexRules } from './path-regex.js';
import { createStrategyFilter, STRATEGIES, type Strategy } from './strategy.js';

export interface ScopeOptions {
  seed: string; // the seed URL (normalized by the caller or here)
  strategy: Strategy;
  includePaths?: string[];
  excludePaths?: string[];
  scrapePaths?: string[];
  maxDepth: number;
  /**
   * How includePaths and excludePaths are written: path globs (the default, docs/crawl-scope.md), or regular
   * expressions searched in the path, or with `regexOnFullUrl` in the whole URL (Firecrawl's rules).
   */
  pathSyntax?: 'glob' | 'regex';
  regexOnFullUrl?: boolean;
  /** Only links whose path starts with this are visited (Firecrawl's crawl without crawlEntireDomain). */
  pathPrefix?: string;
}

export interface Scope {
  /** Should a link found at depth `depth` (seed = 0) be visited (fetched for discovery)?
   *  Checks: http(s) only, strategy against the seed, depth <= maxDepth, not a non-HTML resource,
   *  exclude_paths first (a match refuses), then include_paths (when set, must match).
   *  The seed itself is always visited, whatever the rules say. */
  shouldVisit(url: string, depth: number): boolean;
  /** Is a visited URL's content saved? True when scrapePaths is unset or matches. */
  shouldSave(url: string): boolean;
  /** The seed is always visited; `shouldSave(seed)` tells whether its content is saved. */
  readonly seed: string;
}

function parseHttp(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Compiles the rules once; the returned checks are then cheap per link. Throws TypeError on an
 * invalid seed, strategy, depth or pattern: request validation rejects those before a crawl exists,
 * so reaching here with one is a programming error, and silently dropping a rule would widen the crawl.
 * An empty rule list means the same as an absent one.
 */
export function createScope(options: ScopeOptions): Scope {
  const seed = normalizeUrl(options.seed);
  if (seed === undefined) throw new TypeError(`seed is not an http(s) URL: ${JSON.stringify(options.seed)}`);
  if (!STRATEGIES.includes(options.strategy))
    throw new TypeError(`unknown crawl strategy: ${String(options.strategy)}`);
  const { maxDepth } = options;
  if (!Number.isInteger(maxDepth) || maxDepth < 0)
    throw new TypeError(`maxDepth must be a non-negative integer: ${maxDepth}`);

  const inStrategy = createStrategyFilter(new URL(seed), options.strategy);
  const rules = (list: string[] | undefined): PatternSet =>
    options.pathSyntax === 'regex'
      ? compileRegexRules(list ?? [], options.regexOnFullUrl === true)
      : compilePatterns(list);
  const exclude = rules(options.excludePaths);
  const include = rules(options.includePaths);
  const prefix = options.pathPrefix;
  const scrape = compilePatterns(options.scrapePaths);

  return {
    seed,
    shouldVisit(url: string, depth: number): boolean {
      if (url === seed) return true;
      const parsed = parseHttp(url);
      if (parsed === undefined) return false;
      // A link to the seed with a fragment is still the seed (callers should pass normalized URLs anyway).
      const href = parsed.hash === '' ? parsed.href : parsed.href.slice(0, -parsed.hash.length);
      if (href === seed) return true;
      if (!(depth <= maxDepth) || !(depth >= 0)) return false; // also refuses NaN
      if (!inStrategy(parsed) || hasNonHtmlExtension(parsed.pathname)) return false;
      if (prefix !== undefined && !parsed.pathname.startsWith(prefix)) return false;
      const subject = new MatchSubject(parsed);
      // A link the rules cannot decide within their bounds (see PATH_RULE_LIMITS) is not visited:
      // skipping it is safe, visiting it could break an exclusion.
      if (exclude.size > 0 && exclude.matches(subject) !== false) return false;
      return include.size === 0 || include.matches(subject) === true;
    },
    shouldSave(url: string): boolean {
      const parsed = parseHttp(url);
      if (parsed === undefined) return false;
      return scrape.size === 0 || scrape.matches(new MatchSubject(parsed)) === true;
    },
  };
}
