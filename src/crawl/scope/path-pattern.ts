// Path rules of a crawl (exclude_paths, include_paths, scrape_paths): validation and compiled glob matching.
//
// picomatch turns each glob into a regex source (it knows the corners of glob syntax); that source
// is run by LinearRegex, not by V8, whose backtracking takes exponential time on `/+(a*)b` and
// high-polynomial time on `/*a*a*a*a*b` against paths a hostile site chooses.
import picomatch from 'picomatch';
import { LinearRegex, REGEX_LIMITS, UnsupportedRegexError } from '../../util/linear-regex.js';

/** Bounds of path rules: what a request may ask, and what one check of a URL may cost. */
export const PATH_RULE_LIMITS = {
  /** Characters of one pattern. */
  maxPatternLength: 2048,
  /** Patterns in one list (exclude_paths, include_paths or scrape_paths). */
  maxPatterns: 100,
  /** Characters of all patterns of one list together. */
  maxListLength: 8192,
  /** Nesting of `(`/`{` groups in one pattern: picomatch's own parse is super-linear in it. */
  maxNesting: 8,
  /** Instructions one list compiles to (the per-character cost of a check is at most this). */
  maxProgramSize: REGEX_LIMITS.maxProgramSize,
  /** Longest path (or URL, for whole-URL rules) a rule is matched against; longer ones are undecided. */
  maxSubjectLength: 4096,
  /**
   * Work allowed for one check of a URL against one list: this many steps per character of the
   * strings matched (plus baseSteps). Rule lists written for real sites take under 30.
   */
  stepsPerCharacter: 100,
  baseSteps: 10_000,
} as const;

const MAX_PATTERN_LENGTH = PATH_RULE_LIMITS.maxPatternLength;
const URL_PATTERN = /^https?:\/\//i;
/** Any other `scheme://` (or a glob in the scheme) can never match a crawlable URL: a mistake, not a path. */
const OTHER_SCHEME_PATTERN = /^[^/]*:\/\//;
/** Shell-style negated class `[!a]`; picomatch only understands the regex spelling `[^a]` reliably. */
const SHELL_NEGATED_CLASS = /(?<!\\)\[!/g;
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
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

/** Deepest nesting of unescaped `(`/`{` (a cheap scan, before picomatch sees the pattern). */
function nestingDepth(pattern: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '(' || ch === '{') deepest = Math.max(deepest, ++depth);
    else if ((ch === ')' || ch === '}') && depth > 0) depth--;
  }
  return deepest;
}

/** What the user wrote that the linear matcher refuses, in glob terms. */
function describeUnsupported(error: UnsupportedRegexError): string {
  const reason = error.message;
  if (reason.includes('lookahead'))
    return 'a !(...) extglob may only contain text of bounded length (no *, ** or +(...) inside it)';
  if (reason.includes('backreference')) return 'backreferences (\\1) are not supported';
  if (reason.includes('lookbehind')) return 'lookbehind (?<=...) is not supported';
  if (reason.includes('too large'))
    return `the pattern is too complex (it compiles to more than ${PATH_RULE_LIMITS.maxProgramSize} instructions)`;
  return `unsupported construct (${reason.replace(/ at \d+ in .*$/s, '')})`;
}

/**
 * Why a path/URL pattern cannot be a rule, or undefined when it can (request validation turns the
 * reason into a 400). Refused: non-strings, empty, longer than 2048 characters, control characters,
 * groups nested more than 16 deep, a non-http(s) `scheme://`, a URL pattern without a host,
 * unbalanced `[`, `(` or `{` (picomatch would otherwise read them as literals and the rule would
 * silently never match what the user meant), and constructs with no linear-time matching
 * (`!(...)` around unbounded text, regex backreferences and lookbehind).
 */
export function pathPatternProblem(pattern: string): string | undefined {
  if (typeof pattern !== 'string') return 'Not a valid path pattern: must be a string';
  return analyze(pattern).problem;
}

/** A pattern checked once: why it is refused, or what it compiles from. */
interface Analysis {
  problem?: string;
  wholeUrl?: boolean;
  globs?: string[];
  /** picomatch's regex source of each glob. */
  sources?: string[];
}

// Validation, the list check and createScope ask about the same patterns in turn, and picomatch's
// parse is the costly part, so each pattern is analyzed once (a bounded memo).
const analyses = new Map<string, Analysis>();
const MAX_ANALYSES = 1000;

function analyze(pattern: string): Analysis {
  let analysis = analyses.get(pattern);
  if (analysis === undefined) {
    analysis = findProblem(pattern);
    if (analyses.size >= MAX_ANALYSES) analyses.clear();
    analyses.set(pattern, analysis);
  }
  return analysis;
}

function refused(problem: string): Analysis {
  return { problem: `Not a valid path pattern${problem === '' ? '' : `: ${problem}`}` };
}

function findProblem(pattern: string): Analysis {
  if (pattern.length > MAX_PATTERN_LENGTH) return refused(`longer than ${MAX_PATTERN_LENGTH} characters`);
  if (CONTROL_CHARS.test(pattern)) return refused('contains control characters');
  if (nestingDepth(pattern) > PATH_RULE_LIMITS.maxNesting)
    return refused(`groups nested more than ${PATH_RULE_LIMITS.maxNesting} deep`);
  let prepared: PreparedPattern;
  const sources: string[] = [];
  try {
    prepared = preparePattern(pattern);
    for (const glob of prepared.globs) {
      const re = picomatch.makeRe(glob, { ...GLOB_OPTIONS, strictBrackets: true });
      // picomatch gives up on some malformed braces with a regex that matches nothing.
      if (re.source === '$^') return refused('');
      sources.push(re.source);
    }
  } catch {
    return refused('');
  }
  try {
    LinearRegex.check(sources);
  } catch (error) {
    if (error instanceof UnsupportedRegexError) return refused(describeUnsupported(error));
    throw error;
  }
  return { wholeUrl: prepared.wholeUrl, globs: prepared.globs, sources };
}

/** Is a path/URL pattern valid (see pathPatternProblem)? */
export function isValidPathPattern(pattern: string): boolean {
  return pathPatternProblem(pattern) === undefined;
}

/**
 * Why a whole list of valid patterns cannot be used, or undefined: too many patterns, too many
 * characters together, or too large a compiled program.
 */
export function pathListProblem(patterns: readonly string[]): string | undefined {
  if (patterns.length > PATH_RULE_LIMITS.maxPatterns) return `At most ${PATH_RULE_LIMITS.maxPatterns} patterns`;
  const total = patterns.reduce((sum, pattern) => sum + pattern.length, 0);
  if (total > PATH_RULE_LIMITS.maxListLength)
    return `The patterns of one list may have at most ${PATH_RULE_LIMITS.maxListLength} characters together (these have ${total})`;
  // A bad pattern is reported on its own index, not again for the list.
  if (!patterns.every(isValidPathPattern)) return undefined;
  try {
    compilePatterns(patterns);
  } catch (error) {
    if (error instanceof UnsupportedRegexError)
      return `The patterns of this list are too complex together: ${describeUnsupported(error)}`;
    throw error;
  }
  return undefined;
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

  /** The path as written (what a regex rule is searched in). */
  pathname(): string {
    return this.url.pathname;
  }

  /** The whole URL with its query, without a fragment (what a whole-URL regex rule is searched in). */
  href(): string {
    return this.url.hash === '' ? this.url.href : this.url.href.slice(0, -this.url.hash.length);
  }

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
  /**
   * True when any rule matches any of the subject's strings; undefined when that cannot be decided
   * within the bounds (a string longer than maxSubjectLength, or the step budget spent): the
   * caller then takes the cautious side (not visited, not saved).
   */
  matches(subject: MatchSubject): boolean | undefined;
}

/** One kind of subject (paths, or whole URLs) against the rules written for it. */
class CompiledRules {
  readonly #program: LinearRegex;
  /** picomatch also counts a string equal to the glob as a match (`/wiki/Foo_(bar)` is a group in regex terms). */
  readonly #literals: Set<string>;

  constructor(globs: string[], sources: string[]) {
    this.#program = LinearRegex.compile(sources);
    this.#literals = new Set(globs);
  }

  /** Matches each string within what is left of `budget` (an object so the caller sees what was spent). */
  matchesAny(strings: readonly string[], budget: { steps: number }): boolean | undefined {
    for (const value of strings) {
      if (this.#literals.has(value)) return true;
      const result = this.#program.matchesWithin(value, budget.steps);
      budget.steps -= LinearRegex.lastSteps;
      if (result !== false) return result;
    }
    return false;
  }
}

// A crawl's lists are compiled at validation (the list check) and again when it starts: the last
// few compiled lists are kept. Sharing one is safe: a match runs synchronously to its end.
const compiledLists = new Map<string, PatternSet>();
const MAX_COMPILED_LISTS = 32;

/** Compiles a rule list once. Throws TypeError on an invalid pattern (validation should have caught it). */
export function compilePatterns(patterns: readonly string[] | undefined): PatternSet {
  const key = JSON.stringify(patterns ?? []);
  let set = compiledLists.get(key);
  if (set === undefined) {
    set = compileList(patterns ?? []);
    if (compiledLists.size >= MAX_COMPILED_LISTS) compiledLists.delete(compiledLists.keys().next().value!);
    compiledLists.set(key, set);
  }
  return set;
}

function compileList(patterns: readonly string[]): PatternSet {
  const path = { globs: [] as string[], sources: [] as string[] };
  const url = { globs: [] as string[], sources: [] as string[] };
  for (const pattern of patterns) {
    const analysis = typeof pattern === 'string' ? analyze(pattern) : refused('');
    if (analysis.problem !== undefined) throw new TypeError(`invalid path pattern: ${JSON.stringify(pattern)}`);
    const kind = analysis.wholeUrl ? url : path;
    kind.globs.push(...analysis.globs!);
    kind.sources.push(...analysis.sources!);
  }
  // Each kind is one program: a pass over a string checks all its rules at once.
  const pathRules = path.globs.length === 0 ? undefined : new CompiledRules(path.globs, path.sources);
  const urlRules = url.globs.length === 0 ? undefined : new CompiledRules(url.globs, url.sources);
  const pathGlobs = path.globs;
  const urlGlobs = url.globs;
  return {
    size: pathGlobs.length + urlGlobs.length,
    matches(subject: MatchSubject): boolean | undefined {
      const strings = [...(pathRules ? subject.paths() : []), ...(urlRules ? subject.urls() : [])];
      if (strings.some((value) => value.length > PATH_RULE_LIMITS.maxSubjectLength)) return undefined;
      const characters = strings.reduce((sum, value) => sum + value.length, 0);
      const budget = { steps: PATH_RULE_LIMITS.baseSteps + PATH_RULE_LIMITS.stepsPerCharacter * characters };
      // Not `?? false`: undefined (undecided) must reach the caller.
      const inPaths = pathRules === undefined ? false : pathRules.matchesAny(subject.paths(), budget);
      if (inPaths !== false) return inPaths;
      return urlRules === undefined ? false : urlRules.matchesAny(subject.urls(), budget);
    },
  };
}

/** One-off check of a URL against a rule list; the scope compiles once instead. Undecidable counts as no match. */
export function matchesPathPatterns(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return compilePatterns(patterns).matches(new MatchSubject(parsed)) === true;
}
