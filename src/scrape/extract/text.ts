// Renders extracted content as plain text: one line per block element, whitespace collapsed, preformatted text kept.
import { isTag, textContent, type Element, type ParentNode, type Text } from './dom.js';

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'center',
  'option',
  'legend',
  'menu',
]);
/** Cells of one row stay on one line. */
const CELL = new Set(['td', 'th']);
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'title']);

export function toText(root: Element): string {
  const lines: string[] = [];
  let current = '';
  const flush = (): void => {
    const line = current.replace(/[ \t\n\r\f\u00a0]+/g, ' ').trim();
    if (line) lines.push(line);
    current = '';
  };
  const walk = (node: ParentNode): void => {
    for (const child of node.children) {
      if (child.type === 'text') {
        current += (child as Text).data;
        continue;
      }
      if (!isTag(child)) continue;
      const name = child.name;
      if (SKIP.has(name)) continue;
      if (name === 'br') {
        flush();
        continue;
      }
      if (name === 'pre') {
        flush();
        for (const l of textContent(child).split('\n')) {
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
