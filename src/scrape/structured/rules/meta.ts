// <meta> tags by key (property, else name; lower-cased): Open Graph (og:*, product:*, article:*), Twitter cards
// and the standard names (description, author, keywords...). The first value of a key wins, as Open Graph
// consumers do, except for Open Graph's arrays of tags (one article:tag per tag): those are joined with ", "
// into one written list. Tags inside a microdata scope (itemprop) are that scope's, not the page's.
import { getAttr, hasAttr, parsedTags, type Page } from '../../extract/dom.js';
import { toAbsoluteUrl } from '../../extract/absolutize.js';
import { RULE_LIMITS } from './limits.js';
import { cleanText } from './text.js';

/** Meta keys whose values are URLs, made absolute. */
const URL_META = /^(?:og:(?:image|video|audio|url)(?::(?:url|secure_url))?|twitter:image(?::src)?)$/;

/** Open Graph array properties: every tag is one element. */
const LIST_META = new Set(['article:tag', 'book:tag', 'video:tag']);

/**
 * Bibliographic vocabularies (Highwire citation_*, Dublin Core, PRISM) repeat a key once per value (one
 * citation_author per author): every value is kept, one per line (see namespacedMeta in fill.ts).
 */
export const REPEATED_META = /^(?:citation_|dc\.|dcterms\.|prism\.)/;

export function readMeta(page: Page, baseUrl: string | undefined): Map<string, string> {
  const meta = new Map<string, string>();
  const listed = new Map<string, number>();
  let read = 0;
  for (const el of parsedTags(page, 'meta')) {
    if (++read > RULE_LIMITS.maxMetaTags) break;
    if (hasAttr(el, 'itemprop')) continue;
    const key = (getAttr(el, 'property') ?? getAttr(el, 'name') ?? '').trim().toLowerCase();
    const content = cleanText(getAttr(el, 'content') ?? '');
    if (!key || !content || key.length > RULE_LIMITS.maxKeyChars) continue;
    if (meta.has(key)) {
      const n = listed.get(key) ?? 1;
      const joiner = LIST_META.has(key) ? ', ' : REPEATED_META.test(key) ? '\n' : null;
      if (joiner && n < RULE_LIMITS.maxMetaListValues) {
        meta.set(key, `${meta.get(key) as string}${joiner}${content}`);
        listed.set(key, n + 1);
      }
      continue;
    }
    meta.set(key, URL_META.test(key) ? (toAbsoluteUrl(content, baseUrl) ?? content) : content);
  }
  // Facebook's catalogue tags: with a sale price stated, product:price:amount is the regular price.
  const regular = meta.get('product:price:amount') ?? meta.get('og:price:amount');
  if (meta.has('product:sale_price:amount') && regular) meta.set('product:regular_price:amount', regular);
  return meta;
}
