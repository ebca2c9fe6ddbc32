// Renders extracted content as plain text: one line per block element, whitespace collapsed, preformatted text kept.
import { isElement, type DomElement, type DomNode } from './dom.js';

const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CAPTION',
  'DD',
  'DETAILS',
  'DIALOG',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HGROUP',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TD',
  'TFOOT',
  'TH',
  'THEAD',
  'TR',
  'UL',
  'CENTER',
  'OPTION',
  'LEGEND',
  'MENU',
]);
/** Cells of one row stay on one line. */
const CELL = new Set(['TD', 'TH']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD', 'TITLE']);

export function toText(root: DomElement): string {
  const lines: string[] = [];
  let current = '';
  const flush = (): void => {
    const line = current.replace(/[ \t\n\r\f\u00a0]+/g, ' ').trim();
    if (line) lines.push(line);
    current = '';
  };
  const walk = (node: DomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        current += child.textContent ?? '';
        continue;
      }
      if (!isElement(child)) continue;
      const name = child.nodeName;
      if (SKIP.has(name)) continue;
      if (name === 'BR') {
        flush();
        continue;
      }
      if (name === 'PRE') {
        flush();
        for (const l of (child.textContent ?? '').split('\n')) {
          const t = l.trimEnd();
          if (t.trim()) lines.push(t);
        }
        continue;
      }
      if (CELL.has(name)) {
        current += ' ';
        walk(child);
        current += ' ';
        continue;
      }
      const block = BLOCK.has(name);
      if (block) flush();
      walk(child);
      if (block) flush();
    }
  };
  walk(root);
  flush();
  return lines.join('\n');
}
