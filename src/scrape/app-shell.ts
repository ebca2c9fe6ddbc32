// Telling an app shell (a page whose content scripts render in the browser) from a page that has its content in the
// HTML.

/** Fewer visible characters than this, with scripts and a mount node, is a page that needs rendering. */
const SHELL_TEXT_LIMIT = 200;
/** So little text that any page with scripts needs rendering, mount node or not. */
const EMPTY_TEXT_LIMIT = 40;
/** Tags looked at for a mount node or a noscript notice; a shell has a handful. */
const MAX_TAGS_CHECKED = 200;

const SCRIPT = /<script\b/i;
// Elements whose content is not visible text.
const NON_TEXT = ['script', 'style', 'noscript', 'template', 'svg', 'head'];
// Root nodes frameworks mount into: React/CRA (#root), Vue (#app), Next (#__next), Nuxt (#__nuxt),
// Gatsby (#___gatsby), Svelte/Vite templates, Angular (<app-root>, ng-version), Ember.
const MOUNT_TAG = /<(div|main|section)\b/gi;
const MOUNT_ID = /\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|main-app|application|ember-app)["'\s>]/i;
const MOUNT_MARKER = /<app-root\b|\bng-version=|\bdata-reactroot\b|\bdata-server-rendered\b/i;
const NOSCRIPT_TAG = /<noscript\b/gi;
const NOSCRIPT_NOTICE = /^[\s\S]{0,500}?\b(enable|turn on|requires?)\b[\s\S]{0,80}?javascript/i;

/**
 * Finds the next match of a pattern at or after a position, for positions that only grow: a
 * search that found nothing is never repeated, and a match ahead is reused, so all the searches
 * of one scan read the page once (a page of 10,000 unclosed `<script>`s is not 10,000 reads).
 */
class Forward {
  private from = 0;
  private found: { index: number; end: number } | null | undefined;
  private readonly pattern: RegExp | string;

  /** A string is searched as is (faster), a RegExp with its flags. */
  constructor(needle: RegExp | string) {
    this.pattern =
      typeof needle === 'string' || needle.flags.includes('g') ? needle : new RegExp(needle.source, `${needle.flags}g`);
  }

  next(html: string, at: number): { index: number; end: number } | null {
    if (this.found === null && at >= this.from) return null;
    if (this.found && this.found.index >= at) return this.found;
    this.from = at;
    if (typeof this.pattern === 'string') {
      const index = html.indexOf(this.pattern, at);
      this.found = index < 0 ? null : { index, end: index + this.pattern.length };
    } else {
      this.pattern.lastIndex = at;
      const m = this.pattern.exec(html);
      this.found = m ? { index: m.index, end: m.index + m[0].length } : null;
    }
    return this.found;
  }
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** The NON_TEXT element whose start tag opens at `lt`, if any (as `<name\b`, any case), without allocating. */
function nonTextElementAt(html: string, lt: number): string | undefined {
  for (const name of NON_TEXT) {
    let k = 0;
    // `| 0x20` lower-cases ASCII letters, and maps no other character onto one.
    while (k < name.length && (html.charCodeAt(lt + 1 + k) | 0x20) === name.charCodeAt(k)) k++;
    if (k === name.length && !isWordChar(html.charCodeAt(lt + 1 + k))) return name;
  }
  return undefined;
}

function isSpace(c: number): boolean {
  // Space, tab, CR, LF, FF.
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/**
 * Visible characters (not counting whitespace) of the page, counted up to `stopAt`: text outside
 * tags, comments and the elements of NON_TEXT. Time linear in the page: this runs on the
 * main thread for every page fetched with `engine: auto`.
 */
function visibleTextLength(html: string, stopAt: number): number {
  const endTags = new Map<string, Forward>();
  const commentEnd = new Forward('-->');
  const tagEnd = new Forward('>');
  let count = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const end = lt < 0 ? html.length : lt;
    for (let k = i; k < end; k++) if (!isSpace(html.charCodeAt(k))) count++;
    if (count >= stopAt || lt < 0) return count;
    if (html.startsWith('<!--', lt)) {
      const close = commentEnd.next(html, lt + 4);
      if (close) {
        i = close.end;
        continue;
      }
    }
    const name = nonTextElementAt(html, lt);
    if (name !== undefined) {
      let finder = endTags.get(name);
      if (!finder) endTags.set(name, (finder = new Forward(new RegExp(`</${name}\\s*>`, 'i'))));
      const close = finder.next(html, lt + 1 + name.length);
      if (close) {
        i = close.end;
        continue;
      }
    }
    const gt = tagEnd.next(html, lt + 1);
    if (gt) {
      i = gt.end;
    } else {
      // A `<` that opens nothing is text.
      count++;
      i = lt + 1;
    }
  }
  return count;
}

/**
 * The text of each tag that `start` finds, from its `<` to its `>` (or to the next `<`, so tags
 * never overlap and the checks stay linear), the first MAX_TAGS_CHECKED of them.
 */
function* tagsOf(html: string, start: RegExp): Generator<{ tag: string; end: number }> {
  const pattern = new RegExp(start.source, start.flags);
  const tagEnd = new Forward(/[<>]/);
  let checked = 0;
  let from = 0;
  for (let m = pattern.exec(html); m && checked < MAX_TAGS_CHECKED; m = pattern.exec(html)) {
    if (m.index < from) continue;
    const close = tagEnd.next(html, m.index + 1);
    const end = close ? (html[close.index] === '>' ? close.end : close.index) : html.length;
    checked++;
    from = end;
    yield { tag: html.slice(m.index, end), end };
  }
}

function hasMountNode(html: string): boolean {
  if (MOUNT_MARKER.test(html)) return true;
  for (const { tag } of tagsOf(html, MOUNT_TAG)) if (MOUNT_ID.test(tag.endsWith('>') ? tag : `${tag}>`)) return true;
  return false;
}

function hasNoscriptNotice(html: string): boolean {
  for (const { end } of tagsOf(html, NOSCRIPT_TAG)) if (NOSCRIPT_NOTICE.test(html.slice(end, end + 600))) return true;
  return false;
}

/**
 * Whether `engine: auto` should render this HTML in a browser: it has scripts, little visible text,
 * and a framework's mount node or a "please enable JavaScript" notice (or next to no text at all).
 */
export function looksLikeAppShell(html: string): boolean {
  if (!SCRIPT.test(html)) return false;
  const text = visibleTextLength(html, SHELL_TEXT_LIMIT);
  if (text >= SHELL_TEXT_LIMIT) return false;
  if (text < EMPTY_TEXT_LIMIT) return true;
  return hasMountNode(html) || hasNoscriptNotice(html);
}
