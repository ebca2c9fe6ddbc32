// Reads page metadata (title, description, language, canonical, Open Graph and a few common extras) from the parsed
// document.
import { toAbsoluteUrl } from './absolutize.js';
import {
  closest,
  collapseWhitespace,
  contains,
  getAttr,
  parsedTags,
  textContent,
  type Element,
  type Page,
} from './dom.js';

export interface PageMetadata {
  /** <title>, else og:title, else first h1, else ''. */
  title: string;
  /** meta description, else og:description. */
  description?: string;
  /** <html lang>, else the content-language meta. */
  language?: string;
  /** Absolute URL from <link rel=canonical>. */
  canonical?: string;
  /** Every og:* meta, key without the prefix; URL-valued ones (image, url, video, audio) absolute. */
  og: Record<string, string>;
  keywords?: string;
  author?: string;
  /** article:published_time (or a common equivalent), as written in the page. */
  publishedTime?: string;
  /** Absolute URL of the page icon (rel=icon / shortcut icon / apple-touch-icon). */
  favicon?: string;
}

/** og:image, og:image:url, og:image:secure_url, og:video, og:audio, og:url point at resources. */
const OG_URL_KEY = /^(?:image|video|audio|url)(?::(?:url|secure_url))?$/;

function metaKey(meta: Element): string | undefined {
  const key = getAttr(meta, 'property') ?? getAttr(meta, 'name') ?? getAttr(meta, 'http-equiv');
  return key ? key.trim().toLowerCase() : undefined;
}

const SVG = new Set(['svg']);

function titleElementText(page: Page): string {
  // The <title> of the document, not one inside an inline <svg>.
  for (const el of parsedTags(page, 'title')) {
    if (closest(el, SVG)) continue;
    const t = collapseWhitespace(textContent(el));
    if (t) return t;
  }
  return '';
}

/** `rel` is a space-separated, case-insensitive list of link types. */
function relHas(el: Element, type: string): boolean {
  const rel = getAttr(el, 'rel');
  return (
    rel !== null &&
    rel
      .toLowerCase()
      .split(/[\t\n\f\r ]+/)
      .includes(type)
  );
}

function linkHref(page: Page, types: ReadonlyArray<string>): string | undefined {
  const link = parsedTags(page, 'link').find((el) => getAttr(el, 'href') !== null && types.some((t) => relHas(el, t)));
  return link ? (getAttr(link, 'href') ?? undefined) : undefined;
}

export function extractMetadata(page: Page, base: string | undefined): PageMetadata {
  const og: Record<string, string> = {};
  const named = new Map<string, string>();
  for (const meta of parsedTags(page, 'meta')) {
    const key = metaKey(meta);
    const content = getAttr(meta, 'content');
    if (!key || content == null) continue;
    const value = content.trim();
    if (!value) continue;
    if (key.startsWith('og:')) {
      const ogKey = key.slice(3);
      // First occurrence wins, like Open Graph consumers do for the primary image/title.
      if (ogKey && !(ogKey in og)) og[ogKey] = OG_URL_KEY.test(ogKey) ? (toAbsoluteUrl(value, base) ?? value) : value;
    } else if (!named.has(key)) {
      named.set(key, value);
    }
  }

  const h1 = parsedTags(page, 'h1').find((el) => contains(page.body, el));
  const title = titleElementText(page) || og['title'] || (h1 ? collapseWhitespace(textContent(h1)) : '');
  const metadata: PageMetadata = { title, og };

  const description = named.get('description') ?? og['description'];
  if (description) metadata.description = description;

  const lang = getAttr(page.html, 'lang')?.trim() || named.get('content-language');
  if (lang) metadata.language = lang;

  const canonicalHref = linkHref(page, ['canonical']);
  const canonical = toAbsoluteUrl(canonicalHref, base);
  if (canonical) metadata.canonical = canonical;

  const keywords = named.get('keywords');
  if (keywords) metadata.keywords = keywords;
  const author = named.get('author') ?? named.get('article:author') ?? named.get('twitter:creator');
  if (author) metadata.author = author;
  const published =
    named.get('article:published_time') ?? named.get('datepublished') ?? named.get('date') ?? named.get('dc.date');
  if (published) metadata.publishedTime = published;

  const iconHref = linkHref(page, ['icon', 'apple-touch-icon']);
  const favicon = toAbsoluteUrl(iconHref, base);
  if (favicon) metadata.favicon = favicon;

  return metadata;
}
