// Bounded text of an element: reading stops after a cap, so a value element holding a whole page costs no more
// than the cap (plus the nodes walked to reach it).
import { collapseWhitespace, type ParentNode, type ChildNode, type Text } from '../../extract/dom.js';
import { RULE_LIMITS } from './limits.js';

export function boundedText(node: ParentNode, max: number = RULE_LIMITS.maxTextChars): string {
  const parts: string[] = [];
  let length = 0;
  const stack: ChildNode[] = [];
  for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ChildNode);
  for (let c = stack.pop(); c && length < max; c = stack.pop()) {
    if (c.type === 'text') {
      const data = (c as Text).data;
      parts.push(data);
      length += data.length;
    } else if (c.type === 'tag' && (c.name === 'br' || c.name === 'p' || c.name === 'li' || c.name === 'div')) {
      // Block boundaries and line breaks separate words.
      parts.push(' ');
      for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i] as ChildNode);
    } else if ('children' in c && c.type !== 'script' && c.type !== 'style') {
      for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i] as ChildNode);
    }
  }
  return collapseWhitespace(parts.join('').slice(0, max));
}

/** Collapsed and capped: what every text value goes through. */
export function cleanText(s: string): string {
  return collapseWhitespace(s.length > RULE_LIMITS.maxTextChars ? s.slice(0, RULE_LIMITS.maxTextChars) : s);
}
