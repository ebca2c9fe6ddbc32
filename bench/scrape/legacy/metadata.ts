// Reads page metadata (title, description, language, canonical, Open Graph and a few common extras) from the parsed
// document.
import { toAbsoluteUrl } from './absolutize.js';
import { collapseWhitespace, type DomDocument, type DomElement } from './dom.js';

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

function metaKey(meta: DomElement): string | undefined {
  const key = meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('http-equiv');
  return key ? key.trim().toLowerCase() : undefined;
}

function titleElementText(doc: DomDocument): string {
  // The <title> of the document, not one inside an inline <svg>.
  for (const el of Array.from(doc.getElementsByTagName('title'))) {
    if (el.closest('svg')) continue;
    const t = collapseWhitespace(el.textContent ?? '');
    if (t) return t;
  }
  return '';
}

export function extractMetadata(doc: DomDocument, base: string | undefined): PageMetadata {
  const og: Record<string, string> = {};
  const named = new Map<string, string>();
  for (const meta of Array.from(doc.getElementsByTagName('meta'))) {
    const key = metaKey(meta);
    const content = meta.getAttribute('content');
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

  const h1 = doc.body.querySelector('h1');
  const title = titleElementText(doc) || og['title'] || (h1 ? collapseWhitespace(h1.textContent ?? '') : '');
  const metadata: PageMetadata = { title, og };

  const description = named.get('description') ?? og['description'];
  if (description) metadata.description = description;

  const lang = doc.documentElement.getAttribute('lang')?.trim() || named.get('content-language');
  if (lang) metadata.language = lang;

  const canonicalHref = doc.querySelector('link[rel~="canonical" i][href]')?.getAttribute('href');
  const canonical = toAbsoluteUrl(canonicalHref, base);
  if (canonical) metadata.canonical = canonical;

  const keywords = named.get('keywords');
  if (keywords) metadata.keywords = keywords;
  const author = named.get('author') ?? named.get('article:author') ?? named.get('twitter:creator');
  if (author) metadata.author = author;
  const published =
    named.get('article:published_time') ?? named.get('datepublished') ?? named.get('date') ?? named.get('dc.date');
  if (published) metadata.publishedTime = published;

  const iconHref = doc
    .querySelector('link[rel~="icon" i][href], link[rel~="apple-touch-icon" i][href]')
    ?.getAttribute('href');
  const favicon = toAbsoluteUrl(iconHref, base);
  if (favicon) metadata.favicon = favicon;

  return metadata;
}
