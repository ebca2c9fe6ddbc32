// RDFa Lite (vocab, typeof, property, resource, prefix): `typeof` opens an item, `property` names a property.
// Of RDFa Core, what CMSs (Drupal's rdf module) write: `rel` with a prefixed term names a property too, and a
// `rel` with no link of its own hangs: its value is the first typed element inside it; an element with `about`,
// `typeof` and `property` is a new item whose own property that is (`<span about="/u/1" typeof="schema:Person"
// property="schema:name">Claire</span>`).
// Values: `content`, else the URL of a link or media element (href/src/resource), else <time datetime>, else the
// text. Prefixed terms ('schema:name') and full IRIs are reduced to their local names, as for microdata.
// <meta property="og:..."> outside any typeof scope is not RDFa here: meta.ts reads it.
import { toAbsoluteUrl } from '../../extract/absolutize.js';
import { getAttr, hasAttr, isTag, type Element, type Page } from '../../extract/dom.js';
import { localName } from './keys.js';
import type { FactItem } from './facts.js';
import type { ItemBudget } from './jsonld.js';
import { attrTerms, readScopes, type ScopeSyntax } from './scoped.js';
import { boundedText, cleanText } from './text.js';

function rdfaValue(el: Element, baseUrl: string | undefined): string {
  const content = getAttr(el, 'content');
  if (content !== null) return cleanText(content);
  const url = getAttr(el, 'href') ?? getAttr(el, 'src') ?? getAttr(el, 'resource');
  if (url !== null && (el.name !== 'time' || !hasAttr(el, 'datetime'))) return toAbsoluteUrl(url, baseUrl) ?? '';
  if (el.name === 'time' && hasAttr(el, 'datetime')) return cleanText(getAttr(el, 'datetime') ?? '');
  return boundedText(el);
}

/** Attributes that give a `rel` its own object: such a rel does not hang. */
const LINKED = ['href', 'src', 'resource'];

/**
 * The vocabulary terms of a `rel` (`schema:author`, a full IRI): HTML's own link types (`home`, `bookmark`,
 * `nofollow`) are no properties.
 */
function relTerms(el: Element): string[] {
  const rel = getAttr(el, 'rel');
  if (!rel) return [];
  return rel
    .split(/\s+/)
    .filter((t) => t.includes(':'))
    .map((t) => localName(t))
    .filter((t) => t !== '');
}

/** The first element with `typeof` inside an element, breadth first, a bounded number of elements visited. */
function firstTyped(root: Element): Element | undefined {
  const queue: Element[] = [];
  for (const c of root.children) if (isTag(c)) queue.push(c);
  for (let i = 0; i < queue.length && i < 200; i++) {
    const el = queue[i] as Element;
    if (hasAttr(el, 'typeof')) return el;
    for (const c of el.children) if (isTag(c)) queue.push(c);
  }
  return undefined;
}

export function readRdfa(page: Page, baseUrl: string | undefined, budget: ItemBudget): FactItem[] {
  const syntax: ScopeSyntax = {
    source: 'rdfa',
    opensScope: (el) => hasAttr(el, 'typeof'),
    types: (el) => attrTerms(el, 'typeof'),
    id: (el) => getAttr(el, 'resource') ?? undefined,
    propNames: (el) => [...attrTerms(el, 'property'), ...relTerms(el)],
    value: (el) => rdfaValue(el, baseUrl),
    ownProperty: (el) => hasAttr(el, 'about') && hasAttr(el, 'typeof') && hasAttr(el, 'property'),
    hangingScope: (el) => (relTerms(el).length && !LINKED.some((a) => hasAttr(el, a)) ? firstTyped(el) : undefined),
  };
  return readScopes(page, syntax, budget);
}
