// Converts extracted content (a domhandler element) to GitHub-flavoured Markdown: turndown's algorithm with our rules
// for code, lists, tables and links.
/*
 * The conversion is turndown 7.2 (MIT, Dom Christie; its whitespace collapsing is collapse-whitespace,
 * MIT, Luc Thevenard) configured as we used it (atx headings, fenced code, `-` bullets, `*` emphasis,
 * inlined links, strikethrough from @joplin/turndown-plugin-gfm) plus our rules, ported to work on the
 * domhandler tree directly. Turndown needs a DOM (it ran on linkedom); converting the tree we already
 * have avoids building a second one. Rule order, whitespace handling, escaping and blank-node rules are
 * turndown's, so the output is what turndown gave, with one difference: linkedom split text nodes at
 * character references, and turndown escapes line-start markers at the start of every text node, so
 * `a &gt; b` became `a \> b`; here a text node is the whole run of text between two tags, so a marker
 * right after a character reference is not escaped.
 */
import {
  cloneNode,
  closest,
  collectText,
  collapseWhitespace,
  elementChildren,
  findAll,
  findFirst,
  getAttr,
  hasAttr,
  hasText,
  isTag,
  lastElementChild,
  nextElementSibling,
  parentElement,
  removeNode,
  textContent,
  type ChildNode,
  type Element,
  type ParentNode,
  type Text,
} from './dom.js';

/* ---------- element classes (turndown's lists) ---------- */

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'audio',
  'blockquote',
  'body',
  'canvas',
  'center',
  'dd',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'isindex',
  'li',
  'main',
  'menu',
  'nav',
  'noframes',
  'noscript',
  'ol',
  'output',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'command',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const MEANINGFUL_WHEN_BLANK = new Set([
  'a',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'th',
  'td',
  'iframe',
  'script',
  'audio',
  'video',
]);
/** Removed with their content (turndown `remove`). */
const REMOVED = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'button', 'select', 'input', 'textarea']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const isBlock = (el: Element): boolean => BLOCK.has(el.name);

/* ---------- whitespace collapsing (collapse-whitespace, as in turndown) ---------- */

function nextInOrder(
  prev: ChildNode | ParentNode | null,
  current: ChildNode | ParentNode,
): ChildNode | ParentNode | null {
  const isPre = isTag(current) && current.name === 'pre';
  if ((prev && prev.parent === current) || isPre) return (current as ChildNode).next ?? current.parent;
  if ('children' in current && current.children.length) return current.children[0] as ChildNode;
  return (current as ChildNode).next ?? current.parent;
}

function removeAndNext(node: ChildNode): ChildNode | ParentNode | null {
  const next = node.next ?? node.parent;
  removeNode(node);
  return next;
}

/** Collapses whitespace the way a browser renders it, except in <pre>; drops comments. In place. */
function collapseTreeWhitespace(element: Element): void {
  if (!element.children.length || element.name === 'pre') return;
  let prevText: Text | null = null;
  let keepLeadingWs = false;
  let prev: ChildNode | ParentNode | null = null;
  let node = nextInOrder(prev, element);
  while (node && node !== element) {
    if (node.type === 'text') {
      const textNode = node as Text;
      let text = textNode.data.replace(/[ \r\n\t]+/g, ' ');
      if ((!prevText || prevText.data.endsWith(' ')) && !keepLeadingWs && text[0] === ' ') text = text.slice(1);
      if (!text) {
        node = removeAndNext(textNode);
        continue;
      }
      textNode.data = text;
      prevText = textNode;
    } else if (isTag(node)) {
      if (isBlock(node) || node.name === 'br') {
        if (prevText) prevText.data = prevText.data.replace(/ $/, '');
        prevText = null;
        keepLeadingWs = false;
      } else if (VOID.has(node.name) || node.name === 'pre') {
        // Spaces around inline void elements and inline <pre> are kept.
        prevText = null;
        keepLeadingWs = true;
      } else if (prevText) {
        keepLeadingWs = false;
      }
    } else {
      node = removeAndNext(node as ChildNode);
      continue;
    }
    const nextNode = nextInOrder(prev, node);
    prev = node;
    node = nextNode;
  }
  if (prevText) {
    prevText.data = prevText.data.replace(/ $/, '');
    if (!prevText.data) removeNode(prevText);
  }
}

/* ---------- turndown's node properties ---------- */

function hasAny(el: Element, names: ReadonlySet<string>): boolean {
  return findFirst(el, (e) => names.has(e.name)) !== null;
}

/** turndown's isBlank (textContent all whitespace, no void or meaningful-when-blank element inside). */
function isBlank(el: Element): boolean {
  return !VOID.has(el.name) && !MEANINGFUL_WHEN_BLANK.has(el.name) && !hasText(el) && !hasAny(el, BLANK_BREAKERS);
}

const BLANK_BREAKERS = new Set([...VOID, ...MEANINGFUL_WHEN_BLANK]);

const ASCII_SPACE = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const SPACE = /\s/;
const isSpaceAt = (s: string, i: number): boolean => SPACE.test(s[i] as string);

/**
 * Enough of textContent(el) for edgeWhitespace: the whole text when it is short or all whitespace,
 * otherwise its start up to the first non-space and its end from the last one, joined by "x".
 */
function edgeText(el: Element): string {
  const parts: string[] = [];
  collectText(el, parts);
  if (parts.length <= 2) return parts.join('');
  let head = '';
  let i = 0;
  for (; i < parts.length; i++) {
    const p = parts[i] as string;
    head += p;
    if (/\S/.test(p)) break;
  }
  if (i === parts.length) return head;
  let tail = '';
  for (let j = parts.length - 1; j > i; j--) {
    const p = parts[j] as string;
    tail = p + tail;
    // What lies between two non-space parts does not change the edges.
    if (/\S/.test(p)) return `${head}x${tail}`;
  }
  return head + tail;
}

interface Edges {
  leading: string;
  leadingAscii: string;
  leadingNonAscii: string;
  trailing: string;
  trailingAscii: string;
  trailingNonAscii: string;
}

/** turndown's edgeWhitespace regex, as a scan: leading/trailing whitespace, split into its ASCII and other parts. */
function edgeWhitespace(s: string): Edges {
  const n = s.length;
  let i = 0;
  while (i < n && isSpaceAt(s, i)) i++;
  let a = 0;
  while (a < i && ASCII_SPACE(s.charCodeAt(a))) a++;
  if (i === n) {
    return {
      leading: s,
      leadingAscii: s.slice(0, a),
      leadingNonAscii: s.slice(a),
      trailing: '',
      trailingAscii: '',
      trailingNonAscii: '',
    };
  }
  let j = n;
  while (j > i && isSpaceAt(s, j - 1)) j--;
  let b = n;
  while (b > j && ASCII_SPACE(s.charCodeAt(b - 1))) b--;
  return {
    leading: s.slice(0, i),
    leadingAscii: s.slice(0, a),
    leadingNonAscii: s.slice(a, i),
    trailing: s.slice(j),
    trailingAscii: s.slice(b),
    trailingNonAscii: s.slice(j, b),
  };
}

function isFlankedByWhitespace(side: 'left' | 'right', node: Element): boolean {
  const sibling = side === 'left' ? node.prev : node.next;
  if (!sibling) return false;
  const test = (s: string): boolean => (side === 'left' ? s.endsWith(' ') : s.startsWith(' '));
  if (sibling.type === 'text') return test((sibling as Text).data);
  if (isTag(sibling) && !isBlock(sibling)) return test(textContent(sibling));
  return false;
}

function flankingWhitespace(el: Element): { leading: string; trailing: string } {
  if (isBlock(el)) return { leading: '', trailing: '' };
  const edges = edgeWhitespace(edgeText(el));
  let { leading, trailing } = edges;
  if (edges.leadingAscii && isFlankedByWhitespace('left', el)) leading = edges.leadingNonAscii;
  if (edges.trailingAscii && isFlankedByWhitespace('right', el)) trailing = edges.trailingNonAscii;
  return { leading, trailing };
}

const ESCAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/g, '\\-'],
  [/^\+ /g, '\\+ '],
  [/^(=+)/g, '\\$1'],
  [/^(#{1,6}) /g, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/g, '\\>'],
  [/_/g, '\\_'],
  [/^(\d+)\. /g, '$1\\. '],
  // Not turndown's: page text such as "&lt;b&gt;" or "&lt;https://x&gt;" would be read as raw HTML or
  // an autolink by markdown renderers, and vanish.
  [/<(?=[A-Za-z/!?])/g, '\\<'],
];
/** Whether any of ESCAPES can apply: most text needs none of them. */
const NEEDS_ESCAPE = /[\\*`[\]_]|<[A-Za-z/!?]|^(?:-|\+ |=|#{1,6} |~~~|>|\d+\. )/;

function escapeMarkdown(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  let out = s;
  for (const [re, replacement] of ESCAPES) out = out.replace(re, replacement);
  return out;
}

/* ---------- code ---------- */

const LANG_CLASS = /(?:^|\s)(?:language|lang|highlight(?:-source)?|brush:?)-?([A-Za-z0-9_+#.-]+)/;

/**
 * Language of a code block from class="language-xx" / "lang-xx" / "highlight-xx" (or data-lang) on pre, code or a
 * wrapper.
 */
export function codeLanguage(pre: Element): string {
  const candidates: Element[] = [pre];
  const code = findFirst(pre, (e) => e.name === 'code');
  if (code) candidates.unshift(code);
  const parent = parentElement(pre);
  if (parent) candidates.push(parent);
  for (const el of candidates) {
    const dataLang = getAttr(el, 'data-lang') ?? getAttr(el, 'data-language');
    if (dataLang && /^[A-Za-z0-9_+#.-]+$/.test(dataLang)) return dataLang.toLowerCase();
    const m = LANG_CLASS.exec(getAttr(el, 'class') ?? '');
    if (m && m[1] && !/^(?:none|plain|plaintext|text)$/i.test(m[1])) return m[1].toLowerCase();
  }
  return '';
}

/** Text of a <pre> with <br> as newlines (some highlighters emit them instead of newline characters). */
function preText(node: ParentNode): string {
  let out = '';
  for (const child of node.children) {
    if (isTag(child)) out += child.name === 'br' ? '\n' : preText(child);
    else if (child.type === 'text') out += (child as Text).data;
  }
  return out;
}

function fencedBlock(code: string, language: string): string {
  let fenceSize = 3;
  for (const m of code.matchAll(/^`{3,}/gm)) fenceSize = Math.max(fenceSize, m[0].length + 1);
  const fence = '`'.repeat(fenceSize);
  // trimEnd, not /\s+$/: V8 retries that regex at every position of a whitespace run not at the end
  // (quadratic: 40,000 spaces inside a <pre> took 3 s).
  const body = code.replace(/^\n+/, '').trimEnd();
  return `\n\n${fence}${language}\n${body}\n${fence}\n\n`;
}

function inlineCode(content: string): string {
  if (!content) return '';
  const code = content.replace(/\r?\n|\r/g, ' ');
  const extraSpace = /^`|^ .*?[^ ].* $|`$/.test(code) ? ' ' : '';
  let delimiter = '`';
  const runs: string[] = code.match(/`+/gm) ?? [];
  while (runs.includes(delimiter)) delimiter += '`';
  return delimiter + extraSpace + code + extraSpace + delimiter;
}

/* ---------- tables ---------- */

const CELL = '\uE000';
const ROW = '\uE001';
const TABLE = new Set(['table']);
const LAYOUT_MARKERS = new Set(['table', 'ul', 'ol', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Tables used for page layout (a single column, or nesting other tables/blocks) read better as
 * paragraphs than as a grid, and a GFM cell cannot hold block content anyway.
 */
function isLayoutTable(table: Element, cache: Map<Element, boolean>): boolean {
  const cached = cache.get(table);
  if (cached !== undefined) return cached;
  let maxCols = 0;
  let rows = 0;
  for (const row of findAll(table, (e) => e.name === 'tr')) {
    if (closest(row, TABLE) !== table) continue;
    rows++;
    let cols = 0;
    for (const cell of elementChildren(row)) {
      if (cell.name === 'td' || cell.name === 'th') cols += Math.max(1, Number(getAttr(cell, 'colspan')) || 1);
    }
    maxCols = Math.max(maxCols, cols);
  }
  const layout = rows === 0 || maxCols <= 1 || hasAny(table, LAYOUT_MARKERS);
  cache.set(table, layout);
  return layout;
}

/** Turndown escapes markers that would start a block at line start; inside a cell they are plain text. */
function escapeCell(content: string): string {
  return collapseWhitespace(content.replace(/\n+/g, ' '))
    .replace(/^\\([-+#>=])/, '$1')
    .replace(/^(\d+)\\\./, '$1.')
    .replace(/\|/g, '\\|');
}

function buildTable(content: string): string {
  const rows = content
    .split(ROW)
    .slice(1)
    .map((row) =>
      row
        .split(CELL)
        .slice(1)
        .map((c) => c.trim()),
    );
  const nonEmpty = rows.filter((r) => r.length > 0);
  if (nonEmpty.length === 0) return '';
  const cols = Math.max(...nonEmpty.map((r) => r.length));
  const line = (cells: string[]): string => {
    const padded = [...cells, ...Array<string>(cols - cells.length).fill('')];
    return `| ${padded.join(' | ')} |`.replace(/ {2,}\|/g, ' |');
  };
  const [header, ...body] = nonEmpty as [string[], ...string[][]];
  const sep = `| ${Array<string>(cols).fill('---').join(' | ')} |`;
  return `\n\n${[line(header), sep, ...body.map(line)].join('\n')}\n\n`;
}

/* ---------- conversion ---------- */

function trimLeadingNewlines(s: string): string {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) === 10) i++;
  return i ? s.slice(i) : s;
}

function trimTrailingNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** turndown's join: at most two newlines between parts, the larger of the two sides' counts. */
function join(output: string[], replacement: string): void {
  const tail = output.pop() ?? '';
  const s1 = trimTrailingNewlines(tail);
  const s2 = trimLeadingNewlines(replacement);
  const nls = Math.max(tail.length - s1.length, replacement.length - s2.length);
  const separator = '\n\n'.substring(0, nls);
  if (s1) output.push(s1);
  if (separator) output.push(separator);
  if (s2) output.push(s2);
}

class Converter {
  private readonly layoutTables = new Map<Element, boolean>();

  process(parent: ParentNode, parentIsCode: boolean): string {
    const output: string[] = [];
    for (const node of parent.children) {
      let replacement = '';
      if (node.type === 'text') {
        const data = (node as Text).data;
        replacement = parentIsCode ? data : escapeMarkdown(data);
      } else if (isTag(node)) {
        replacement = this.replacementFor(node, parentIsCode);
      }
      join(output, replacement);
    }
    return output.join('');
  }

  private replacementFor(el: Element, parentIsCode: boolean): string {
    const isCode = el.name === 'code' || parentIsCode;
    const { leading, trailing } = flankingWhitespace(el);
    const content = (): string => {
      const c = this.process(el, isCode);
      return leading || trailing ? c.trim() : c;
    };
    return leading + this.rule(el, content) + trailing;
  }

  /** The first matching rule's replacement (turndown's order: blank, our rules, its defaults, remove, default). */
  private rule(el: Element, content: () => string): string {
    const name = el.name;
    if (isBlank(el)) return isBlock(el) ? '\n\n' : '';
    switch (name) {
      case 'table': {
        const c = content();
        if (isLayoutTable(el, this.layoutTables)) return `\n\n${c}\n\n`;
        // The caption (converted below) precedes the first row marker.
        const rowStart = c.indexOf(ROW);
        const caption = rowStart > 0 ? c.slice(0, rowStart).trim() : '';
        return (caption ? `\n\n${caption}` : '') + buildTable(rowStart >= 0 ? c.slice(rowStart) : '');
      }
      case 'caption':
        return `\n\n${collapseWhitespace(content())}\n\n`;
      case 'thead':
      case 'tbody':
      case 'tfoot':
        return content();
      case 'tr': {
        const c = content();
        const table = closest(el, TABLE);
        if (!table || isLayoutTable(table, this.layoutTables)) return `\n\n${c}\n\n`;
        return ROW + c.replace(/\n/g, ' ');
      }
      case 'th':
      case 'td': {
        const c = content();
        const table = closest(el, TABLE);
        if (!table || isLayoutTable(table, this.layoutTables)) return `\n\n${c}\n\n`;
        const span = Math.min(50, Math.max(1, Number(getAttr(el, 'colspan')) || 1));
        return CELL + escapeCell(c) + CELL.repeat(span - 1);
      }
      case 'img': {
        const src = getAttr(el, 'src') ?? '';
        // data: URIs are placeholders or inline blobs, never useful in text.
        if (!src || src.startsWith('data:')) return '';
        const alt = collapseWhitespace(getAttr(el, 'alt') ?? '').replace(/([[\]\\])/g, '\\$1');
        return `![${alt}](${src.replace(/([<>()])/g, '\\$1').replace(/ /g, '%20')})`;
      }
      case 'a': {
        const c = content();
        const href = getAttr(el, 'href');
        const text = c.trim();
        if (!text) return '';
        // href="#" (a script hook, absolutized to "page#") links nowhere.
        if (!href || href.startsWith('#') || href.endsWith('#')) return c;
        const dest = href.replace(/([<>()])/g, '\\$1').replace(/ /g, '%20');
        // Keep the surrounding spaces outside the brackets so "[ word ]" does not appear.
        const lead = /^\s/.test(c) ? ' ' : '';
        const trail = /\s$/.test(c) ? ' ' : '';
        return `${lead}[${text.replace(/\n{2,}/g, '\n')}](${dest})${trail}`;
      }
      case 'pre':
        return fencedBlock(preText(el), codeLanguage(el));
      case 'li': {
        // "- item" / "1. item" with nested content indented to the text column.
        const parent = parentElement(el);
        let prefix = '- ';
        if (parent && parent.name === 'ol') {
          const start = Number(getAttr(parent, 'start'));
          const index = elementChildren(parent).indexOf(el);
          prefix = `${(Number.isFinite(start) && hasAttr(parent, 'start') ? start : 1) + index}. `;
        }
        const body = content()
          .replace(/^\n+/, '')
          .replace(/\n+$/, '\n')
          .replace(/\n(?!$)/g, `\n${' '.repeat(prefix.length)}`);
        return prefix + body.trimEnd() + (nextElementSibling(el) ? '\n' : '');
      }
      case 'del':
      case 's':
      case 'strike':
        return `~~${content()}~~`;
      case 'p':
        return `\n\n${content()}\n\n`;
      case 'br':
        return '\n';
      case 'blockquote':
        return `\n\n${trimTrailingNewlines(trimLeadingNewlines(content())).replace(/^/gm, '> ')}\n\n`;
      case 'ul':
      case 'ol': {
        const parent = el.parent;
        if (parent && isTag(parent) && parent.name === 'li' && lastElementChild(parent) === el) return `\n${content()}`;
        return `\n\n${content()}\n\n`;
      }
      case 'hr':
        return '\n\n---\n\n';
      case 'em':
      case 'i': {
        const c = content();
        return c.trim() ? `*${c}*` : '';
      }
      case 'strong':
      case 'b': {
        const c = content();
        return c.trim() ? `**${c}**` : '';
      }
      case 'code': {
        const isCodeBlock = el.parent !== null && isTag(el.parent) && el.parent.name === 'pre' && !el.prev && !el.next;
        if (!isCodeBlock) return inlineCode(content());
        break;
      }
    }
    if (HEADINGS.has(name)) {
      const text = collapseWhitespace(content());
      return text ? `\n\n${'#'.repeat(Number(name.charAt(1)))} ${text}\n\n` : '';
    }
    if (REMOVED.has(name)) return '';
    return isBlock(el) ? `\n\n${content()}\n\n` : content();
  }
}

/** Tidy-up the brief asks for: no trailing spaces, at most one blank line, trimmed. */
export function normalizeMarkdown(md: string): string {
  return stripTrailingBlanks(md)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * `md.replace(/[ \t\u00a0]+$/gm, '')` in one pass: that regex is quadratic on a long run of blanks
 * followed by text on the same line (code blocks keep such runs). `$` in multiline mode is the end
 * or any line terminator (\n, \r, U+2028, U+2029), so a run before one of those is dropped.
 */
export function stripTrailingBlanks(md: string): string {
  let out = '';
  let kept = 0; // md[kept..runStart) is still to copy
  let runStart = -1;
  for (let i = 0; i <= md.length; i++) {
    const c = i < md.length ? md.charCodeAt(i) : -1;
    if (c === 0x20 || c === 0x09 || c === 0xa0) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0 && (c === -1 || c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029)) {
      out += md.slice(kept, runStart);
      kept = i;
    }
    runStart = -1;
  }
  return kept === 0 ? md : out + md.slice(kept);
}

/**
 * Markdown of `root`'s content. The conversion collapses whitespace in the tree it converts: with
 * `inPlace` it uses `root` itself (when nothing else reads the tree afterwards), otherwise a copy.
 */
export function toMarkdown(root: Element, inPlace = false): string {
  const tree = inPlace ? root : cloneNode(root, true);
  collapseTreeWhitespace(tree);
  const md = new Converter()
    .process(tree, false)
    .replace(/^[\t\r\n]+/, '')
    .trimEnd(); // = /[\t\r\n\s]+$/ without its quadratic retries
  return normalizeMarkdown(md);
}
