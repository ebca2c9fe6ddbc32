// Path rules of a crawl (exclude_paths, include_paths, scrape_paths): validation and compiled glob matching.
import picomatch from 'picomatch';

const MAX_PATTERN_LENGTH = 2048;
const URL_PATTERN = /^https?:\/\//i;
/** Any other `scheme://` (or a glob in the scheme) can never match a crawlable URL: a mistake, not a path. */
const OTHER_SCHEME_PATTERN = /^[^/]*:\/\//;
/** Shell-style negated class `[!a]`; picomatch only understands the regex spelling `[^a]` reliably. */
const SHELL_NEGATED_CLASS = /(?<!\\)\[!/g;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const GLOB_CHARS = /[*?[\]{}()!+@]/;
const LOWER_HEX_ESCAPE = /%[0-9a-f]{2}/gi;

/**
 * `dot`: URL paths have no hidden files, so `*` must match `.well-known`.
 * `nonegate`: a leading `!` is a literal character; exclusion has its own list, and a negated
 * include would be a second, confusing way to exclude.
 * `windows: false`: backslash is an escape and `/` the only separator on every platform.
 */
const GLOB_OPTIONS: picomatch.PicomatchOptions = { dot: true, nonegate: true, windows: false };

/** A pattern turned into the globs actually compiled, and what they are matched against. */
interface PreparedPattern {
  globs: string[];
  wholeUrl: boolean;
}

function upperCaseEscapes(text: string): string {
  return text.includes('%') ? text.replace(LOWER_HEX_ESCAPE, (escape) => escape.toUpperCase()) : text;
}

/** Trailing slashes are not significant in path rules: `/docs/` and `/docs` name the same section. */
function stripTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Scheme and host of a URL pattern, written the way normalizeUrl writes them. */
function normalizeAuthority(scheme: string, authority: string): string {
  let host = authority.toLowerCase();
  if (scheme === 'http' && host.endsWith(':80')) host = host.slice(0, -3);
  if (scheme === 'https' && host.endsWith(':443')) host = host.slice(0, -4);
  if (!GLOB_CHARS.test(host)) {
    // A literal host may be an IDN or carry credentials: let WHATWG URL write it as links are written.
    try {
      host = new URL(`${scheme}://${host}/`).host;
    } catch {
      throw new TypeError(`invalid host in URL pattern: ${authority}`);
    }
  }
  return host;
}

/** Throws TypeError when the pattern cannot be a rule (callers validate first with isValidPathPattern). */
function preparePattern(pattern: string): PreparedPattern {
  const trimmed = pattern.trim();
  if (trimmed === '') throw new TypeError('empty path pattern');
  if (URL_PATTERN.test(trimmed)) {
    const schemeEnd = trimmed.indexOf('://');
    const scheme = trimmed.slice(0, schemeEnd).toLowerCase();
    const rest = trimmed.slice(schemeEnd + 3);
    const slash = rest.indexOf('/');
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    if (authority === '') throw new TypeError(`URL pattern without a host: ${pattern}`);
    const pathAndQuery = slash === -1 ? '/' : rest.slice(slash);
    // The query of a URL is kept as written by normalizeUrl, so only the path part is normalized here.
    const queryStart = pathAndQuery.indexOf('?');
    const path = queryStart === -1 ? pathAndQuery : pathAndQuery.slice(0, queryStart);
    const query = queryStart === -1 ? '' : pathAndQuery.slice(queryStart);
    const normalizedPath = query === '' ? stripTrailingSlash(upperCaseEscapes(path)) : upperCaseEscapes(path);
    const glob = `${scheme}://${normalizeAuthority(scheme, authority)}${normalizedPath}${query}`;
    return { globs: [glob.replace(SHELL_NEGATED_CLASS, '[^')], wholeUrl: true };
  }
  if (OTHER_SCHEME_PATTERN.test(trimmed)) throw new TypeError(`only http(s) URL patterns can match: ${pattern}`);
  // A relative pattern is read as rooted: `blog/*` means `/blog/*`, not "blog anywhere".
  const rooted = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  const glob = stripTrailingSlash(upperCaseEscapes(rooted)).replace(SHELL_NEGATED_CLASS, '[^');
  // picomatch wants at least one directory for a leading `/**/` (`/**/x` misses `/x`), unlike
  // `/a/**/x`, which matches `/a/x`; the rooted form is added so `**` means zero or more everywhere.
  const globs = glob.startsWith('/**/') ? [glob, glob.slice(3)] : [glob];
  return { globs, wholeUrl: false };
}

/**
 * Is a path/URL pattern valid (used by request validation to give a 400 on bad patterns)?
 * Refused: empty, longer than 2048 characters, control characters, a non-http(s) `scheme://`,
 * a URL pattern without a host, and unbalanced `[`, `(` or `{` (picomatch would otherwise read
 * them as literals and the rule would silently never match what the user meant).
 */
export function isValidPathPattern(pattern: string): boolean {
  if (typeof pattern !== 'string' || pattern.length > MAX_PATTERN_LENGTH || CONTROL_CHARS.test(pattern)) return false;
  try {
    return preparePattern(pattern).globs.every((glob) => {
      const re = picomatch.makeRe(glob, { ...GLOB_OPTIONS, strictBrackets: true });
      // picomatch gives up on some malformed braces with a regex that matches nothing.
      return re.source !== '$^';
    });
  } catch {
    return false;
  }
}

/** Decodes each path segment, so rules can be written with readable characters (`/café/*`). */
function decodePath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      if (!segment.includes('%')) return segment;
      try {
        const decoded = decodeURIComponent(segment);
        // An escaped `/` is data inside one segment; decoding it would invent a new segment.
        return decoded.includes('/') ? segment : decoded;
      } catch {
        return segment;
      }
    })
    .join('/');
}

/**
 * The strings a URL offers to path rules, computed at most once per URL and only when some rule
 * list needs them, because shouldVisit runs for every discovered link.
 */
export class MatchSubject {
  #paths: string[] | undefined;
  #urls: string[] | undefined;

  constructor(private readonly url: URL) {}

  /** The path as written and decoded, each with and without a trailing slash. */
  paths(): readonly string[] {
    if (this.#paths === undefined) {
      const raw = this.url.pathname;
      const decoded = decodePath(raw);
      const variants = new Set([raw, stripTrailingSlash(raw), decoded, stripTrailingSlash(decoded)]);
      this.#paths = [...variants];
    }
    return this.#paths;
  }

  /** The whole URL with its query, plus every path variant without the query. */
  urls(): readonly string[] {
    if (this.#urls === undefined) {
      const prefix = `${this.url.protocol}//${this.url.host}`;
      const urls = this.paths().map((path) => prefix + path);
      if (this.url.search !== '') urls.unshift(prefix + this.url.pathname + this.url.search);
      this.#urls = urls;
    }
    return this.#urls;
  }
}

/** A compiled list of path rules. */
export interface PatternSet {
  readonly size: number;
  /** True when any rule matches any of the subject's strings. */
  matches(subject: MatchSubject): boolean;
}

type Test = (input: string) => boolean;

function anyOf(globs: string[]): Test | undefined {
  return globs.length === 0 ? undefined : picomatch(globs, GLOB_OPTIONS);
}

/** Compiles a rule list once. Throws TypeError on an invalid pattern (validation should have caught it). */
export function compilePatterns(patterns: readonly string[] | undefined): PatternSet {
  const pathGlobs: string[] = [];
  const urlGlobs: string[] = [];
  for (const pattern of patterns ?? []) {
    if (!isValidPathPattern(pattern)) throw new TypeError(`invalid path pattern: ${JSON.stringify(pattern)}`);
    const prepared = preparePattern(pattern);
    (prepared.wholeUrl ? urlGlobs : pathGlobs).push(...prepared.globs);
  }
  const pathTest = anyOf(pathGlobs);
  const urlTest = anyOf(urlGlobs);
  return {
    size: pathGlobs.length + urlGlobs.length,
    matches(subject: MatchSubject): boolean {
      // Wrapped: picomatch reads a second argument as `returnObject`, and `some` would pass the index.
      if (pathTest !== undefined && subject.paths().some((path) => pathTest(path))) return true;
      return urlTest !== undefined && subject.urls().some((url) => urlTest(url));
    },
  };
}

/** One-off check of a URL against a rule list; the scope compiles once instead. */
export function matchesPathPatterns(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return compilePatterns(patterns).matches(new MatchSubject(parsed));
}
