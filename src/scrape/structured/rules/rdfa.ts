// RDFa Lite (vocab, typeof, property, resource, prefix): `typeof` opens an item, `property` names a property.
// Values: `content`, else the URL of a link or media element (href/src/resource), else <time datetime>, else the
// text. Prefixed terms ('schema:name') and full IRIs are reduced to their local names, as for microdata.
// <meta property="og:..."> outside any typeof scope is not RDFa here: meta.ts reads it.
import { toAbsoluteUrl } from '../../extract/absolutize.js';
import { getAttr, hasAttr, type Element, type Page } from '../../extract/dom.js';
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

export function readRdfa(page: Page, baseUrl: string | undefined, budget: ItemBudget): FactItem[] {
  const syntax: ScopeSyntax = {
    source: 'rdfa',
    opensScope: (el) => hasAttr(el, 'typeof'),
    types: (el) => attrTerms(el, 'typeof'),
    id: (el) => getAttr(el, 'resource') ?? undefined,
    propNames: (el) => attrTerms(el, 'property'),
    value: (el) => rdfaValue(el, baseUrl),
  };
  return readScopes(page, syntax, budget);
}
