// Parses page HTML once into a linkedom document with a guaranteed <html>/<head>/<body> shape, plus the DOM types we
// rely on.
import { parseHTML } from 'linkedom';

/*
 * The project compiles without the DOM lib (server code), so the subset of the DOM API that the
 * extraction modules use is declared here. linkedom's nodes implement all of it at runtime.
 */
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;

export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly parentElement: DomElement | null;
  readonly childNodes: ArrayLike<DomNode> & Iterable<DomNode>;
  readonly firstChild: DomNode | null;
  readonly lastChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  readonly ownerDocument: DomDocument;
  textContent: string | null;
  remove(): void;
  cloneNode(deep?: boolean): DomNode;
  appendChild<T extends DomNode>(node: T): T;
  insertBefore<T extends DomNode>(node: T, ref: DomNode | null): T;
  removeChild<T extends DomNode>(node: T): T;
  contains(other: DomNode | null): boolean;
}

export interface DomText extends DomNode {
  data: string;
}

export interface DomAttr {
  readonly name: string;
  readonly value: string;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly children: ArrayLike<DomElement> & Iterable<DomElement>;
  readonly firstElementChild: DomElement | null;
  readonly lastElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  readonly attributes: ArrayLike<DomAttr> & Iterable<DomAttr>;
  id: string;
  className: string;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  getElementsByTagName(name: string): ArrayLike<DomElement> & Iterable<DomElement>;
  matches(selector: string): boolean;
  closest(selector: string): DomElement | null;
  append(...nodes: DomNode[]): void;
  prepend(...nodes: DomNode[]): void;
  before(...nodes: DomNode[]): void;
  after(...nodes: DomNode[]): void;
  replaceWith(...nodes: DomNode[]): void;
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement;
  readonly head: DomElement;
  readonly body: DomElement;
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomText;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  getElementsByTagName(name: string): ArrayLike<DomElement> & Iterable<DomElement>;
}

export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node != null && node.nodeType === ELEMENT_NODE;
}

export function isText(node: DomNode | null | undefined): node is DomText {
  return node != null && node.nodeType === TEXT_NODE;
}

/** Elements that belong in <head> when a page omits the <head>/<body> tags (HTML's "in head" insertion mode). */
const HEAD_TAGS = new Set(['TITLE', 'META', 'LINK', 'BASE', 'STYLE', 'SCRIPT', 'NOSCRIPT', 'TEMPLATE']);

/**
 * linkedom keeps the parser's raw tree, unlike a browser it does not create missing <html>, <head>
 * or <body> elements; its `body` getter then throws or returns an empty body while the content sits
 * elsewhere. This moves the tree into the shape every later step assumes.
 */
function normalizeShape(doc: DomDocument): void {
  const topLevel = Array.from(doc.childNodes).filter((n) => n.nodeType !== 10 /* doctype */);
  let html = topLevel.find((n): n is DomElement => isElement(n) && n.nodeName === 'HTML');
  let items: DomNode[];
  if (html) {
    const at = topLevel.indexOf(html);
    items = [...topLevel.slice(0, at), ...Array.from(html.childNodes), ...topLevel.slice(at + 1)];
  } else {
    items = topLevel;
    html = doc.createElement('html');
    doc.appendChild(html);
  }
  let head = items.find((n): n is DomElement => isElement(n) && n.nodeName === 'HEAD');
  let body = items.find((n): n is DomElement => isElement(n) && n.nodeName === 'BODY');
  const toHead: DomNode[] = [];
  const bodyStart: DomNode[] = [];
  const bodyEnd: DomNode[] = [];
  let seenBody = false;
  let seenContent = false;
  for (const node of items) {
    if (node === head) continue;
    if (node === body) {
      seenBody = true;
      continue;
    }
    if (node.nodeType === COMMENT_NODE || (isText(node) && !node.data.trim())) {
      node.remove();
      continue;
    }
    if (!seenBody && !seenContent && isElement(node) && HEAD_TAGS.has(node.nodeName)) {
      toHead.push(node);
      continue;
    }
    seenContent = true;
    (seenBody ? bodyEnd : bodyStart).push(node);
  }
  if (!head) head = doc.createElement('head');
  if (!body) body = doc.createElement('body');
  html.append(head, body);
  if (toHead.length) head.append(...toHead);
  if (bodyStart.length) body.prepend(...bodyStart);
  if (bodyEnd.length) body.append(...bodyEnd);
}

const EMPTY_PAGE = '<!DOCTYPE html><html><head></head><body></body></html>';

/** Never throws: anything linkedom cannot shape becomes an empty document. */
export function parseDocument(html: string): DomDocument {
  try {
    const doc = parseHTML(html || EMPTY_PAGE).document as unknown as DomDocument;
    normalizeShape(doc);
    return doc;
  } catch {
    const doc = parseHTML(EMPTY_PAGE).document as unknown as DomDocument;
    return doc;
  }
}

/** Whitespace runs (including non-breaking spaces) become one space, as a browser renders them. */
export function collapseWhitespace(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}

export function removeNodes(nodes: Iterable<DomNode>): void {
  for (const n of Array.from(nodes)) n.remove();
}
