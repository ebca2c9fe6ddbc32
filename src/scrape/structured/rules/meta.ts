// <meta> tags by key (property, else name; lower-cased): Open Graph (og:*, product:*, article:*), Twitter cards
// and the standard names (description, author, keywords...). The first value of a key wins, as Open Graph
// consumers do. Tags inside a microdata scope (itemprop) are that scope's, not the page's.
import { getAttr, hasAttr, parsedTags, type Page } from '../../extract/dom.js';
import { toAbsoluteUrl } from '../../extract/absolutize.js';
import { RULE_LIMITS } from './limits.js';
import { cleanText } from './text.js';

/** Meta keys whose values are URLs, made absolute. */
const URL_META = /^(?:og:(?:image|video|audio|url)(?::(?:url|secure_url))?|twitter:image(?::src)?)$/;

export function readMeta(page: Page, baseUrl: string | undefined): Map<string, string> {
  const meta = new Map<string, string>();
  let read = 0;
  for (const el of parsedTags(page, 'meta')) {
    if (++read > RULE_LIMITS.maxMetaTags) break;
    if (hasAttr(el, 'itemprop')) continue;
    const key = (getAttr(el, 'property') ?? getAttr(el, 'name') ?? '').trim().toLowerCase();
    const content = cleanText(getAttr(el, 'content') ?? '');
    if (!key || !content || key.length > RULE_LIMITS.maxKeyChars || meta.has(key)) continue;
    meta.set(key, URL_META.test(key) ? (toAbsoluteUrl(content, baseUrl) ?? content) : content);
  }
  return meta;
}
