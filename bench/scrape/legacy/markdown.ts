// Converts extracted content (a DOM element) to GitHub-flavoured Markdown with turndown plus rules for code, lists,
// tables and links.
import TurndownService from 'turndown';
import { strikethrough } from '@joplin/turndown-plugin-gfm';
import { collapseWhitespace, isElement, type DomElement, type DomNode } from './dom.js';

/*
 * Turndown types its rule callbacks with DOM lib types that this project does not load, so they
 * arrive untyped; each rule narrows its node to our DomElement once.
 */
const asEl = (node: unknown): DomElement => node as DomElement;

const LANG_CLASS = /(?:^|\s)(?:language|lang|highlight(?:-source)?|brush:?)-?([A-Za-z0-9_+#.-]+)/;

/**
 * Language of a code block from class="language-xx" / "lang-xx" / "highlight-xx" (or data-lang) on pre, code or a
 * wrapper.
 */
export function codeLanguage(pre: DomElement): string {
  const candidates: DomElement[] = [pre];
  const code = pre.querySelector('code');
  if (code) candidates.unshift(code);
  if (pre.parentElement) candidates.push(pre.parentElement);
  for (const el of candidates) {
    const dataLang = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
    if (dataLang && /^[A-Za-z0-9_+#.-]+$/.test(dataLang)) return dataLang.toLowerCase();
    const m = LANG_CLASS.exec(el.getAttribute('class') ?? '');
    if (m && m[1] && !/^(?:none|plain|plaintext|text)$/i.test(m[1])) return m[1].toLowerCase();
  }
  return '';
}

/** Text of a <pre> with <br> as newlines (some highlighters emit them instead of newline characters). */
function preText(node: DomNode): string {
  let out = '';
  for (const child of Array.from(node.childNodes)) {
    if (isElement(child)) out += child.nodeName === 'BR' ? '\n' : preText(child);
    else if (child.nodeType === 3) out += child.textContent ?? '';
  }
  return out;
}

function fencedBlock(code: string, language: string): string {
  let fenceSize = 3;
  for (const m of code.matchAll(/^`{3,}/gm)) fenceSize = Math.max(fenceSize, m[0].length + 1);
  const fence = '`'.repeat(fenceSize);
  const body = code.replace(/^\n+/, '').replace(/\s+$/, '');
  return `\n\n${fence}${language}\n${body}\n${fence}\n\n`;
}

/* ---------- tables ---------- */

const CELL = '\uE000';
const ROW = '\uE001';

function ownTable(el: DomElement): DomElement | null {
  return el.closest('table');
}

const layoutCache = new WeakMap<DomElement, boolean>();

/**
 * Tables used for page layout (a single column, or nesting other tables/blocks) read better as
 * paragraphs than as a grid, and a GFM cell cannot hold block content anyway.
 */
function isLayoutTable(table: DomElement): boolean {
  const cached = layoutCache.get(table);
  if (cached !== undefined) return cached;
  let maxCols = 0;
  let rows = 0;
  for (const row of Array.from(table.querySelectorAll('tr'))) {
    if (ownTable(row) !== table) continue;
    rows++;
    let cols = 0;
    for (const cell of Array.from(row.children)) {
      if (cell.nodeName === 'TD' || cell.nodeName === 'TH')
        cols += Math.max(1, Number(cell.getAttribute('colspan')) || 1);
    }
    maxCols = Math.max(maxCols, cols);
  }
  const layout =
    rows === 0 ||
    maxCols <= 1 ||
    table.querySelector('table, ul, ol, pre, blockquote, h1, h2, h3, h4, h5, h6') !== null;
  layoutCache.set(table, layout);
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

/* ---------- service ---------- */

function createService(): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    br: '',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '*',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  td.use(strikethrough);
  td.remove(['script', 'style', 'noscript', 'template', 'iframe', 'button', 'select', 'input', 'textarea']);

  td.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = collapseWhitespace(content);
      if (!text) return '';
      return `\n\n${'#'.repeat(Number(asEl(node).nodeName.charAt(1)))} ${text}\n\n`;
    },
  });

  // "- item" / "1. item" with nested content indented to the text column (turndown pads markers to 4).
  td.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const li = asEl(node);
      const parent = li.parentElement;
      let prefix = '- ';
      if (parent && parent.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start'));
        const index = Array.prototype.indexOf.call(parent.children, li) as number;
        prefix = `${(Number.isFinite(start) && parent.hasAttribute('start') ? start : 1) + index}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n(?!$)/g, `\n${' '.repeat(prefix.length)}`);
      return prefix + body.trimEnd() + (li.nextElementSibling ? '\n' : '');
    },
  });

  td.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const pre = asEl(node);
      return fencedBlock(preText(pre), codeLanguage(pre));
    },
  });

  td.addRule('link', {
    filter: (node) => asEl(node).nodeName === 'A',
    replacement: (content, node) => {
      const a = asEl(node);
      const href = a.getAttribute('href');
      const text = content.trim();
      if (!text) return '';
      // href="#" (a script hook, absolutized to "page#") links nowhere.
      if (!href || href.startsWith('#') || href.endsWith('#')) return content;
      const dest = href.replace(/([<>()])/g, '\\$1').replace(/ /g, '%20');
      // Keep the surrounding spaces outside the brackets so "[ word ]" does not appear.
      const lead = /^\s/.test(content) ? ' ' : '';
      const trail = /\s$/.test(content) ? ' ' : '';
      return `${lead}[${text.replace(/\n{2,}/g, '\n')}](${dest})${trail}`;
    },
  });

  td.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const img = asEl(node);
      const src = img.getAttribute('src') ?? '';
      // data: URIs are placeholders or inline blobs, never useful in text.
      if (!src || src.startsWith('data:')) return '';
      const alt = collapseWhitespace(img.getAttribute('alt') ?? '').replace(/([[\]\\])/g, '\\$1');
      return `![${alt}](${src.replace(/([<>()])/g, '\\$1').replace(/ /g, '%20')})`;
    },
  });

  td.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = asEl(node);
      const table = ownTable(cell);
      if (!table || isLayoutTable(table)) return `\n\n${content}\n\n`;
      const span = Math.min(50, Math.max(1, Number(cell.getAttribute('colspan')) || 1));
      return CELL + escapeCell(content) + CELL.repeat(span - 1);
    },
  });
  td.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const table = ownTable(asEl(node));
      if (!table || isLayoutTable(table)) return `\n\n${content}\n\n`;
      return ROW + content.replace(/\n/g, ' ');
    },
  });
  td.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  td.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content) => `\n\n${collapseWhitespace(content)}\n\n`,
  });
  td.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      if (isLayoutTable(asEl(node))) return `\n\n${content}\n\n`;
      // The caption (converted above) precedes the first row marker.
      const rowStart = content.indexOf(ROW);
      const caption = rowStart > 0 ? content.slice(0, rowStart).trim() : '';
      return (caption ? `\n\n${caption}` : '') + buildTable(rowStart >= 0 ? content.slice(rowStart) : '');
    },
  });
  return td;
}

let service: TurndownService | undefined;

/** Tidy-up the brief asks for: no trailing spaces, at most one blank line, trimmed. */
export function normalizeMarkdown(md: string): string {
  return md
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function toMarkdown(root: DomElement): string {
  service ??= createService();
  // Turndown accepts any DOM-like node; it clones the element before collapsing whitespace.
  const md = service.turndown(root as unknown as TurndownService.Node);
  return normalizeMarkdown(md);
}
