// Microdata (HTML Living Standard, "Microdata"): itemscope/itemtype/itemid/itemprop/itemref. Property values
// follow the standard's element rules: <meta content>, URL attributes of media and links (absolute), <data>/
// <meter value>, <time datetime>, <abbr title> when it is an ISO date (Blogger), else the text. A `content`
// attribute on other elements is honoured too: sites put it on <span>s for a machine-readable price next to the
// formatted one.
import { toAbsoluteUrl } from '../../extract/absolutize.js';
import { getAttr, hasAttr, type Element, type Page } from '../../extract/dom.js';
import type { FactItem } from './facts.js';
import type { ItemBudget } from './jsonld.js';
import { attrTerms, readScopes, type ScopeSyntax } from './scoped.js';
import { boundedText, cleanText } from './text.js';

const SRC_ELEMENTS = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF_ELEMENTS = new Set(['a', 'area', 'link']);

export function microdataValue(el: Element, baseUrl: string | undefined): string {
  const content = getAttr(el, 'content');
  if (el.name === 'meta' || content !== null) return cleanText(content ?? '');
  const url = SRC_ELEMENTS.has(el.name)
    ? getAttr(el, 'src')
    : HREF_ELEMENTS.has(el.name)
      ? getAttr(el, 'href')
      : el.name === 'object'
        ? getAttr(el, 'data')
        : null;
  if (url !== null) return toAbsoluteUrl(url, baseUrl) ?? '';
  if (el.name === 'data' || el.name === 'meter') return cleanText(getAttr(el, 'value') ?? '');
  if (el.name === 'time' && hasAttr(el, 'datetime')) return cleanText(getAttr(el, 'datetime') ?? '');
  // Blogger and older templates: <abbr itemprop="datePublished" title="2025-03-09T10:30:00+01:00">10:30</abbr>.
  const title = el.name === 'abbr' ? getAttr(el, 'title') : null;
  if (title && /^\d{4}-\d{2}-\d{2}/.test(title.trim())) return cleanText(title);
  return boundedText(el);
}

export function readMicrodata(page: Page, baseUrl: string | undefined, budget: ItemBudget): FactItem[] {
  const syntax: ScopeSyntax = {
    source: 'microdata',
    opensScope: (el) => hasAttr(el, 'itemscope'),
    types: (el) => attrTerms(el, 'itemtype'),
    id: (el) => getAttr(el, 'itemid') ?? undefined,
    propNames: (el) => attrTerms(el, 'itemprop'),
    value: (el) => microdataValue(el, baseUrl),
    refs: (el) => (getAttr(el, 'itemref') ?? '').split(/\s+/).filter((r) => r !== ''),
  };
  return readScopes(page, syntax, budget);
}
