// Parses page HTML once (htmlparser2 into a domhandler tree) with a guaranteed <html>/<head>/<body> shape, plus the
// small tree API the extraction modules share.
import {
  Document,
  Element,
  Text,
  cloneNode,
  isTag,
  isText,
  type AnyNode,
  type ChildNode,
  type ParentNode,
} from 'domhandler';
import { Parser } from 'htmlparser2';
import { DomHandler } from 'domhandler';
import { fastTokenizer } from './tokenizer.js';

/*
 * Why domhandler and not a DOM implementation (linkedom, jsdom): every step of extraction is a walk
 * over a tree that is built once and thrown away. domhandler nodes are plain objects (name, attribs,
 * children, parent, prev, next); building them is 5-10x cheaper than linkedom's DOM nodes, and
 * reading text or attributes is a property access instead of a recomputation. css-select and
 * dom-serializer work on them directly. The helpers below are the DOM operations we need, written
 * for this tree (no live collections, no events).
 */

export { Document, Element, Text, cloneNode, isTag, isText };
export type { AnyNode, ChildNode, ParentNode };

export interface Page {
  doc: Document;
  html: Element;
  head: Element;
  body: Element;
  /** Elements by tag name as parsed (see parsedTags); built on first use. */
  tags?: Map<string, Element[]>;
}

/* ---------- the page's elements by tag name ---------- */

/** Key under which <a> and <area> are indexed together, in document order. */
export const LINK_TAGS = '#links';

function buildIndex(page: Page): Map<string, Element[]> {
  const index = new Map<string, Element[]>();
  const add = (key: string, el: Element): void => {
    const list = index.get(key);
    if (list) list.push(el);
    else index.set(key, [el]);
  };
  // Iterative: the whole page is indexed before the depth cap (clean.ts) has run.
  const stack: ChildNode[] = [];
  for (let i = page.doc.children.length - 1; i >= 0; i--) stack.push(page.doc.children[i] as ChildNode);
  for (let c = stack.pop(); c; c = stack.pop()) {
    if (!isTag(c)) continue;
    add(c.name, c);
    if (c.name === 'a' || c.name === 'area') add(LINK_TAGS, c);
    const kids = c.children;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as ChildNode);
  }
  return index;
}

/**
 * Elements named `name` as the page was parsed, in document order: one walk indexes every name, so
 * document-wide lookups (meta, title, links, scripts...) do not each walk the page. Elements removed
 * since are still listed; `tagsUnder` filters them.
 */
export function parsedTags(page: Page, name: string): ReadonlyArray<Element> {
  // A field, not a WeakMap keyed by the page: weak maps with large values cost the GC far more.
  page.tags ??= buildIndex(page);
  return page.tags.get(name) ?? [];
}

/** parsedTags limited to the elements still inside `within` (the document by default). */
export function tagsUnder(page: Page, name: string, within: ParentNode = page.doc): Element[] {
  return parsedTags(page, name).filter((el) => contains(within, el));
}

/* ---------- attributes ---------- */

/** The attribute's value, or null. Guarded: `attribs` is a plain object ("constructor" is not an attribute). */
export function getAttr(el: Element, name: string): string | null {
  const v = el.attribs[name];
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(el.attribs, name) ? v : null;
}

export function hasAttr(el: Element, name: string): boolean {
  return getAttr(el, name) !== null;
}

export function setAttr(el: Element, name: string, value: string): void {
  el.attribs[name] = value;
}

export function removeAttr(el: Element, name: string): void {
  if (Object.prototype.hasOwnProperty.call(el.attribs, name)) delete el.attribs[name];
}

/* ---------- navigation ---------- */

export function firstElementChild(el: ParentNode): Element | null {
  for (const c of el.children) if (isTag(c)) return c;
  return null;
}

export function lastElementChild(el: ParentNode): Element | null {
  const kids = el.children;
  for (let i = kids.length - 1; i >= 0; i--) {
    const c = kids[i] as ChildNode;
    if (isTag(c)) return c;
  }
  return null;
}

export function nextElementSibling(node: ChildNode): Element | null {
  for (let n = node.next; n; n = n.next) if (isTag(n)) return n;
  return null;
}

export function previousElementSibling(node: ChildNode): Element | null {
  for (let n = node.prev; n; n = n.prev) if (isTag(n)) return n;
  return null;
}

export function elementChildren(el: ParentNode): Element[] {
  const out: Element[] = [];
  for (const c of el.children) if (isTag(c)) out.push(c);
  return out;
}

export function parentElement(node: ChildNode): Element | null {
  const p = node.parent;
  return p && isTag(p) ? p : null;
}

/** True when `node` is `ancestor` or inside it. */
export function contains(ancestor: AnyNode, node: AnyNode): boolean {
  for (let n: AnyNode | null = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

/** The nearest inclusive ancestor with one of the tag names. */
export function closest(el: Element, names: ReadonlySet<string>): Element | null {
  for (let n: ParentNode | null = el; n && isTag(n); n = n.parent) if (names.has(n.name)) return n;
  return null;
}

/** Descendants of root (not root itself) in document order for which `test` holds. */
export function findAll(root: ParentNode, test: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  const walk = (parent: ParentNode): void => {
    for (const c of parent.children) {
      if (!isTag(c)) continue;
      if (test(c)) out.push(c);
      if (c.children.length) walk(c);
    }
  };
  walk(root);
  return out;
}

/** The first descendant in document order for which `test` holds. */
export function findFirst(root: ParentNode, test: (el: Element) => boolean): Element | null {
  for (const c of root.children) {
    if (!isTag(c)) continue;
    if (test(c)) return c;
    if (c.children.length) {
      const hit = findFirst(c, test);
      if (hit) return hit;
    }
  }
  return null;
}

/** Descendants with one of these (lower-case) tag names, document order. */
export function byTag(root: ParentNode, name: string): Element[] {
  return findAll(root, (el) => el.name === name);
}

/* ---------- text ---------- */

/**
 * The data of every descendant text node, in order. Iterative: it also serves the depth cap (clean.ts), on trees of any
 * depth.
 */
export function collectText(node: ParentNode, out: string[]): void {
  const stack: ChildNode[] = [];
  for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ChildNode);
  for (let c = stack.pop(); c; c = stack.pop()) {
    if (c.type === 'text') out.push((c as Text).data);
    else if ('children' in c) {
      const kids = c.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as ChildNode);
    }
  }
}

/** DOM textContent: the text of every descendant text node (comments excluded). */
export function textContent(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!('children' in node)) return '';
  const kids = node.children;
  if (kids.length === 1) {
    const only = kids[0] as ChildNode;
    if (only.type === 'text') return (only as Text).data;
  }
  const out: string[] = [];
  collectText(node, out);
  return out.join('');
}

/** Whitespace runs (including non-breaking spaces) become one space, as a browser renders them. */
export function collapseWhitespace(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Collapsed, trimmed length of a string: every whitespace run counts as one character. */
function collapsedLength(s: string): number {
  return s.trim().replace(/\s{2,}/g, ' ').length;
}

/**
 * Text of `node` gathered until `enough(prefixText)` says the answer is known, or all of it.
 * The check runs at doubling sizes, so the cost stays linear; most callers only compare with a bound
 * and need not read a whole article's text.
 */
function textUntil(node: ParentNode, firstCheck: number, enough: (prefix: string) => boolean): string | null {
  const parts: string[] = [];
  let raw = 0;
  let nextCheck = Math.max(64, firstCheck);
  const walk = (parent: ParentNode): boolean => {
    for (const c of parent.children) {
      if (c.type === 'text') {
        const data = (c as Text).data;
        parts.push(data);
        raw += data.length;
        if (raw >= nextCheck) {
          if (enough(parts.join(''))) return false;
          nextCheck = raw * 2;
        }
      } else if ('children' in c && c.children.length && !walk(c)) return false;
    }
    return true;
  };
  return walk(node) ? parts.join('') : null;
}

/**
 * `collapseWhitespace(textContent(node)).length`; once it is known to exceed `limit` the count may
 * stop early (the result is then some number above `limit`).
 */
export function collapsedTextLength(node: ParentNode, limit = Infinity): number {
  if (limit === Infinity) return collapsedLength(textContent(node));
  let over = 0;
  const text = textUntil(node, limit + 1, (prefix) => (over = collapsedLength(prefix)) > limit);
  return text === null ? over : collapsedLength(text);
}

/** Whether the node's text has any non-whitespace character. */
export function hasText(node: ParentNode): boolean {
  for (const c of node.children) {
    if (c.type === 'text') {
      if (/\S/.test((c as Text).data)) return true;
    } else if ('children' in c && c.children.length && hasText(c)) return true;
  }
  return false;
}

const WORD = /[\p{L}\p{N}]+/gu;

function wordCount(s: string): number {
  return (s.match(WORD) ?? []).length;
}

/**
 * The number of `[\p{L}\p{N}]+` runs in `textContent(node)`; once it is known to exceed `limit`
 * the count may stop early (a prefix of the text never has more runs than the whole).
 */
export function wordCountOf(node: ParentNode, limit = Infinity): number {
  if (limit === Infinity) return wordCount(textContent(node));
  let over = 0;
  const text = textUntil(node, 2 * (limit + 1), (prefix) => (over = wordCount(prefix)) > limit);
  return text === null ? over : wordCount(text);
}

/* ---------- mutation ---------- */

export function createElement(name: string, attribs: Record<string, string> = {}): Element {
  return new Element(name, attribs);
}

export function createText(data: string): Text {
  return new Text(data);
}

/** Detaches node from its parent (no-op when detached). */
export function removeNode(node: ChildNode): void {
  const parent = node.parent;
  if (parent) {
    const kids = parent.children;
    // Children are arrays: the first and last are removed in constant time (shift and pop), which
    // is what loops moving children one by one do; others cost a search and a splice.
    if (kids[0] === node) kids.shift();
    else if (kids[kids.length - 1] === node) kids.pop();
    else {
      const i = kids.indexOf(node);
      if (i >= 0) kids.splice(i, 1);
    }
  }
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

export function appendChild(parent: ParentNode, node: ChildNode): void {
  removeNode(node);
  const kids = parent.children;
  const last = kids[kids.length - 1] ?? null;
  node.parent = parent;
  node.prev = last;
  node.next = null;
  if (last) last.next = node;
  kids.push(node);
}

/** Inserts node before ref (a child of parent), or appends when ref is null. */
export function insertBefore(parent: ParentNode, node: ChildNode, ref: ChildNode | null): void {
  if (!ref) {
    appendChild(parent, node);
    return;
  }
  removeNode(node);
  const kids = parent.children;
  // Inserting before the same reference again and again (unwrapping) finds it near the end.
  const i = kids.lastIndexOf(ref);
  if (i < 0) {
    appendChild(parent, node);
    return;
  }
  kids.splice(i, 0, node);
  node.parent = parent;
  node.prev = ref.prev;
  node.next = ref;
  if (ref.prev) ref.prev.next = node;
  ref.prev = node;
}

// Where the last replaceNode found its node, per children array: walks replace siblings in order,
// so the next one is found at or next to it instead of by a search.
const lastIndex = new WeakMap<ChildNode[], number>();

function indexInParent(kids: ChildNode[], node: ChildNode): number {
  const hint = lastIndex.get(kids);
  if (hint !== undefined) {
    for (const i of [hint, hint + 1, hint - 1]) {
      if (kids[i] === node) {
        lastIndex.set(kids, i);
        return i;
      }
    }
  }
  const i = kids.indexOf(node);
  if (i >= 0) lastIndex.set(kids, i);
  return i;
}

/**
 * Puts `replacement` where `node` is; node ends up detached. In place, without a splice: Readability
 * replaces every div that holds one paragraph, and a page of 150,000 sibling divs made that
 * quadratic (5 s of a 7 s extraction).
 */
export function replaceNode(node: ChildNode, replacement: ChildNode): void {
  const parent = node.parent;
  if (!parent || node === replacement) return;
  removeNode(replacement);
  const kids = parent.children;
  const i = indexInParent(kids, node);
  if (i < 0) return;
  kids[i] = replacement;
  replacement.parent = parent;
  replacement.prev = node.prev;
  replacement.next = node.next;
  if (node.prev) node.prev.next = replacement;
  if (node.next) node.next.prev = replacement;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

/**
 * Moves every child of `from` into `to` (not inside `from`), before `ref` (a child of `to`) or at the
 * end, in one step: moving them one by one costs a search and an array splice per child.
 */
export function moveChildren(from: ParentNode, to: ParentNode, ref: ChildNode | null = null): void {
  const moved = from.children;
  if (!moved.length || from === to) return;
  from.children = [];
  const kids = to.children;
  let at = ref ? kids.lastIndexOf(ref) : -1;
  if (at < 0) at = kids.length;
  const before = kids[at - 1] ?? null;
  const after = kids[at] ?? null;
  for (const c of moved) c.parent = to;
  const first = moved[0] as ChildNode;
  const last = moved[moved.length - 1] as ChildNode;
  first.prev = before;
  if (before) before.next = first;
  last.next = after;
  if (after) after.prev = last;
  to.children = kids.slice(0, at).concat(moved, kids.slice(at));
}

export function removeChildren(el: ParentNode): void {
  for (const c of el.children) {
    c.parent = null;
    c.prev = null;
    c.next = null;
  }
  el.children = [];
}

/* ---------- parsing ---------- */

/** Elements that belong in <head> when a page omits the <head>/<body> tags (HTML's "in head" insertion mode). */
const HEAD_TAGS = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template']);

/**
 * htmlparser2 keeps the tokens' tree: unlike a browser it does not create missing <html>, <head>
 * or <body> elements. This moves the tree into the shape every later step assumes: content that
 * precedes <body> goes into it, head-only elements before any content go into <head>.
 */
function normalizeShape(doc: Document): Page {
  const topLevel = doc.children.filter((n) => n.type !== 'directive');
  let html = topLevel.find((n): n is Element => isTag(n) && n.name === 'html');
  let items: ChildNode[];
  if (html) {
    const at = topLevel.indexOf(html);
    items = [...topLevel.slice(0, at), ...html.children, ...topLevel.slice(at + 1)];
  } else {
    items = topLevel;
    html = createElement('html');
    appendChild(doc, html);
  }
  let head = items.find((n): n is Element => isTag(n) && n.name === 'head');
  let body = items.find((n): n is Element => isTag(n) && n.name === 'body');
  const toHead: ChildNode[] = [];
  const bodyStart: ChildNode[] = [];
  const bodyEnd: ChildNode[] = [];
  let seenBody = false;
  let seenContent = false;
  for (const node of items) {
    if (node === head) continue;
    if (node === body) {
      seenBody = true;
      continue;
    }
    if (node.type === 'comment' || (isText(node) && !node.data.trim())) {
      removeNode(node);
      continue;
    }
    if (!seenBody && !seenContent && isTag(node) && HEAD_TAGS.has(node.name)) {
      toHead.push(node);
      continue;
    }
    seenContent = true;
    (seenBody ? bodyEnd : bodyStart).push(node);
  }
  // A <head> never closed on a page without <body> holds the whole page: as a browser does, the
  // first child that is not head material ends the head, and it and what follows are body content.
  const headOverflow: ChildNode[] = [];
  if (head) {
    const children = head.children;
    const first = children.findIndex(
      (n) => (isTag(n) && !HEAD_TAGS.has(n.name)) || (isText(n) && n.data.trim() !== ''),
    );
    if (first >= 0) headOverflow.push(...children.slice(first));
  }
  head ??= createElement('head');
  body ??= createElement('body');
  appendChild(html, head);
  appendChild(html, body);
  for (const n of toHead) appendChild(head, n);
  const firstBodyChild = body.children[0] ?? null;
  for (const n of [...headOverflow, ...bodyStart]) insertBefore(body, n, firstBodyChild);
  for (const n of bodyEnd) appendChild(body, n);
  return { doc, html, head, body };
}

/** Never throws: anything that cannot be parsed becomes an empty page. */
export function parsePage(html: string): Page {
  try {
    const handler = new DomHandler();
    // Attribute names are lower-cased as browsers do (`<A HREF>` is a link).
    new Parser(handler, { decodeEntities: true, Tokenizer: fastTokenizer() }).end(html);
    return normalizeShape(handler.root);
  } catch {
    return normalizeShape(new Document([]));
  }
}
