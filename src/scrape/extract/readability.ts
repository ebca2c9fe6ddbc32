// Main-content scoring: Mozilla Readability 0.6's algorithm ported to the domhandler tree, with the behaviour it had on
// linkedom.
/*
 * Port of @mozilla/readability 0.6.0 (Readability.js), Copyright (c) 2010 Arc90 Inc and Mozilla,
 * licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0).
 * Only `parse()` and what it calls are ported, for the options we used (keepClasses, no debug, no
 * maxElemsToParse); the result is the article element and the title, not the other fields.
 *
 * Why a port: on linkedom, Readability cost ~15 ms of a ~29 ms page (it serializes the body to cache
 * it, and linkedom recomputes textContent and style on every read). The same algorithm on plain
 * domhandler nodes costs a few ms. Function names follow Readability.js so the two can be compared
 * side by side.
 *
 * Behaviour kept from Readability on linkedom, because our F1 was measured with it (docs/extraction.md):
 *  - className is linkedom's token list (unique class names joined by one space);
 *  - style is read the way linkedom parses the attribute (`display` must be exactly "none");
 *  - links are not made absolute here (linkedom has no document URL; absolutize.ts does it later),
 *    only `javascript:` links are turned into text.
 */
import {
  appendChild,
  byTag,
  cloneNode,
  collapsedTextLength,
  hasText,
  createElement,
  createText,
  elementChildren,
  findAll,
  findFirst,
  firstElementChild,
  getAttr,
  hasAttr,
  isTag,
  isText,
  moveChildren,
  nextElementSibling,
  previousElementSibling,
  removeAttr,
  removeChildren,
  removeNode,
  replaceNode,
  setAttr,
  tagsUnder,
  textContent,
  type AnyNode,
  type ChildNode,
  type Element,
  type Page,
  type ParentNode,
} from './dom.js';

const FLAG_STRIP_UNLIKELYS = 0x1;
const FLAG_WEIGHT_CLASSES = 0x2;
const FLAG_CLEAN_CONDITIONALLY = 0x4;
const N_TOP_CANDIDATES = 5;
const CHAR_THRESHOLD = 500;

/** What isElementWithoutContent counts: an element holding only these has no content. */
const LINE_BREAKS: ReadonlySet<string> = new Set(['br', 'hr']);
/** The headings cleanHeaders weighs (and may remove). */
const CLEANED_HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2']);
const TAGS_TO_SCORE = new Set(['section', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'td', 'pre']);

/**
 * An embedded post (a tweet, an Instagram post) in a "social-media-embed"-style wrapper: quoted content of the
 * article, not a share bar, though its wrapper's class says "social".
 */
function isQuotedEmbed(node: Element, matchString: string): boolean {
  return /(?:^|[\s_-])embed(?:$|[\s_-])/i.test(matchString) && findFirst(node, (e) => e.name === 'blockquote') !== null;
}

/** The blockquote of an embedded post, as the platforms' embed codes mark it. */
function isEmbeddedPost(blockquote: Element): boolean {
  return /(?:^|\s)(?:twitter-tweet|instagram-media|tiktok-embed|threads-embed|bluesky-embed)(?:$|\s)/i.test(
    getAttr(blockquote, 'class') ?? '',
  );
}

const RE = {
  unlikelyCandidates:
    /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i,
  okMaybeItsACandidate: /and|article|body|column|content|main|shadow/i,
  positive: /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i,
  negative:
    /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i,
  byline: /byline|author|dateline|writtenby|p-author/i,
  normalize: /\s{2,}/g,
  videos:
    /\/\/(www\.)?((dailymotion|youtube|youtube-nocookie|player\.vimeo|v\.qq)\.com|(archive|upload\.wikimedia)\.org|player\.twitch\.tv)/i,
  shareElements: /(\b|_)(share|sharedaddy)(\b|_)/i,
  tokenize: /\W+/g,
  whitespace: /^\s*$/,
  hasContent: /\S$/,
  hashUrl: /^#.+/,
  commas: /\u002C|\u060C|\uFE50|\uFE10|\uFE11|\u2E41|\u2E34|\u2E32|\uFF0C/g,
  b64DataUrl: /^data:\s*([^\s;,]+)\s*;\s*base64\s*,/i,
  jsonLdArticleTypes:
    /^Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference$/,
  adWords: /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu,
  loadingWords: /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu,
};

const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog']);
const DIV_TO_P_ELEMS = new Set(['blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul']);
const ALTER_TO_DIV_EXCEPTIONS = new Set(['div', 'article', 'section', 'p', 'ol', 'ul']);
const PRESENTATIONAL_ATTRIBUTES = [
  'align',
  'background',
  'bgcolor',
  'border',
  'cellpadding',
  'cellspacing',
  'frame',
  'hspace',
  'rules',
  'style',
  'valign',
  'vspace',
];
const DEPRECATED_SIZE_ATTRIBUTE_ELEMS = new Set(['table', 'th', 'td', 'hr', 'pre']);
const PHRASING_ELEMS = new Set([
  'abbr',
  'audio',
  'b',
  'bdo',
  'br',
  'button',
  'cite',
  'code',
  'data',
  'datalist',
  'dfn',
  'em',
  'embed',
  'i',
  'img',
  'input',
  'kbd',
  'label',
  'mark',
  'math',
  'meter',
  'noscript',
  'object',
  'output',
  'progress',
  'q',
  'ruby',
  'samp',
  'script',
  'select',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'textarea',
  'time',
  'var',
  'wbr',
]);
const EMBED_TAGS = new Set(['object', 'embed', 'iframe']);
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const TEXTISH_TAGS = new Set(['span', 'li', 'td', ...DIV_TO_P_ELEMS]);
const LIST_TAGS = new Set(['ul', 'ol']);
const IMAGE_TAGS = new Set(['img', 'picture']);
const LAZY_IMAGE_TAGS = new Set(['img', 'picture', 'figure']);
const DATA_TABLE_DESCENDANTS = new Set(['col', 'colgroup', 'tfoot', 'thead', 'th']);
const CONTENT_ELEMENTS = new Set(['img', 'embed', 'object', 'iframe']);
const CLEAN_FIRST = new Set(['object', 'embed', 'footer', 'link', 'aside']);
const CLEAN_AFTER_SHARE = new Set(['iframe', 'input', 'textarea', 'select', 'button']);
const HTML_ESCAPE_MAP: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

interface Score {
  contentScore: number;
}

interface JsonLdMetadata {
  title?: string;
  byline?: string;
}

interface Census {
  p: number;
  img: number;
  li: number;
  input: number;
  listText: number;
  headingText: number;
  textishText: number;
  embeds: number;
  videoEmbed: boolean;
  dataTable: boolean;
}

interface Attempt {
  articleContent: Element;
  textLength: number;
}

export interface ReadabilityResult {
  /** The article: a detached <div> holding a <div id="readability-page-1" class="page"> wrapper. */
  content: Element;
  /** The page div inside `content`, to unwrap. */
  pageDiv: Element;
  /** Readability's article title (JSON-LD, meta tags, then <title> heuristics). */
  title: string;
}

/** linkedom's className: the class attribute's unique tokens joined by one space. */
function className(el: Element): string {
  const cls = getAttr(el, 'class');
  if (!cls) return '';
  const tokens = cls.split(/\s+/);
  if (tokens.length === 1) return cls;
  return [...new Set(tokens.filter(Boolean))].join(' ');
}

function idOf(el: Element): string {
  return getAttr(el, 'id') || '';
}

/** The value linkedom's CSSStyleDeclaration gives for `prop`: the last "prop: value" of the attribute, trimmed. */
function styleValue(el: Element, prop: string): string {
  const style = getAttr(el, 'style');
  if (!style) return '';
  let value = '';
  // split(';') then trim, not split(/\s*;\s*/): V8 retries that at every position of a long blank
  // run (quadratic: 40,000 spaces in a style attribute took 4.6 s).
  for (const rule of style.split(';')) {
    const colon = rule.indexOf(':');
    if (colon < 0) continue;
    const key = rule.slice(0, colon).trim();
    const v = rule.slice(colon + 1).trim();
    if (key && v && key === prop) value = v;
  }
  return value;
}

/** Text of a text or comment node (what Node.textContent gives for them), else of the element. */
function nodeText(node: AnyNode): string {
  if (node.type === 'comment' || node.type === 'text') return (node as { data: string }).data;
  return textContent(node);
}

function wordCount(str: string): number {
  return str.split(/\s+/).length;
}

function isPhrasingContent(node: AnyNode): boolean {
  if (node.type === 'text') return true;
  if (!isTag(node)) return false;
  const name = node.name;
  if (PHRASING_ELEMS.has(name)) return true;
  return (name === 'a' || name === 'del' || name === 'ins') && node.children.every(isPhrasingContent);
}

function isWhitespace(node: AnyNode): boolean {
  return (isText(node) && node.data.trim().length === 0) || (isTag(node) && node.name === 'br');
}

/**
 * Length of Readability's _getInnerText: textContent trimmed, runs of 2+ whitespace made one space.
 * Every whitespace run ends up one character long, so this is the collapsed text length. Kept
 * under Readability.js's name so the port reads side by side with it.
 */
function innerTextLength(e: ParentNode): number {
  return collapsedTextLength(e);
}

/** Collapsed text of a subtree in parts: length, and whether it starts/ends with a (collapsed) space. */
interface TextSummary {
  length: number;
  lead: boolean;
  trail: boolean;
}

const EMPTY_SUMMARY: TextSummary = { length: 0, lead: false, trail: false };

function textNodeSummary(data: string): TextSummary {
  if (!data) return EMPTY_SUMMARY;
  const trimmed = data.trim();
  if (!trimmed) return { length: 1, lead: true, trail: true };
  const lead = trimmed.length !== data.length && data[0] !== trimmed[0];
  const trail = trimmed.length !== data.length && !data.endsWith(trimmed[trimmed.length - 1] as string);
  return { length: trimmed.replace(RE.normalize, ' ').length + (lead ? 1 : 0) + (trail ? 1 : 0), lead, trail };
}

/**
 * Memoized text lengths (innerTextLength) and link text lengths of elements, computed bottom-up so
 * that scoring every candidate costs O(nodes) instead of O(nodes x depth). Valid while the tree does
 * not change; `invalidate` drops a changed element's ancestors.
 */
class TextLengths {
  private readonly summaries = new Map<ParentNode, TextSummary>();
  private readonly links = new Map<ParentNode, number>();

  constructor(private readonly isLink: (el: Element) => boolean) {}

  private summary(node: ParentNode): TextSummary {
    const cached = this.summaries.get(node);
    if (cached) return cached;
    let acc: TextSummary = EMPTY_SUMMARY;
    for (const c of node.children) {
      let part: TextSummary;
      if (c.type === 'text') part = textNodeSummary((c as { data: string }).data);
      else if ('children' in c && c.children.length) part = this.summary(c);
      else continue;
      if (part.length === 0) continue;
      if (acc.length === 0) acc = part;
      else
        acc = {
          length: acc.length + part.length - (acc.trail && part.lead ? 1 : 0),
          lead: acc.lead,
          trail: part.trail,
        };
    }
    this.summaries.set(node, acc);
    return acc;
  }

  /** innerTextLength(node). */
  length(node: ParentNode): number {
    const s = this.summary(node);
    return s.length === 0 ? 0 : Math.max(0, s.length - (s.lead ? 1 : 0) - (s.trail ? 1 : 0));
  }

  /** Sum over the descendant links of their text length, weighted as _getLinkDensity weighs them. */
  linkLength(node: ParentNode): number {
    const cached = this.links.get(node);
    if (cached !== undefined) return cached;
    let sum = 0;
    for (const c of node.children) {
      if (!isTag(c)) continue;
      if (c.children.length) sum += this.linkLength(c);
      if (this.isLink(c)) {
        const href = getAttr(c, 'href');
        sum += this.length(c) * (href && RE.hashUrl.test(href) ? 0.3 : 1);
      }
    }
    this.links.set(node, sum);
    return sum;
  }

  /** `node` changed or moved: its ancestors' entries are stale. */
  invalidate(node: AnyNode): void {
    for (let n: ParentNode | null = node.parent; n; n = n.parent) {
      this.summaries.delete(n);
      this.links.delete(n);
    }
  }
}

function getInnerText(e: AnyNode, normalizeSpaces = true): string {
  const text = textContent(e).trim();
  return normalizeSpaces ? text.replace(RE.normalize, ' ') : text;
}

function hasSingleTagInsideElement(element: Element, tag: string): boolean {
  const kids = elementChildren(element);
  if (kids.length !== 1 || (kids[0] as Element).name !== tag) return false;
  return !element.children.some((node) => isText(node) && RE.hasContent.test(node.data));
}

function hasChildBlockElement(element: ParentNode): boolean {
  return element.children.some(
    (node) => (isTag(node) && DIV_TO_P_ELEMS.has(node.name)) || ('children' in node && hasChildBlockElement(node)),
  );
}

function textSimilarity(textA: string, textB: string): number {
  const tokensA = textA.toLowerCase().split(RE.tokenize).filter(Boolean);
  const tokensB = textB.toLowerCase().split(RE.tokenize).filter(Boolean);
  if (!tokensA.length || !tokensB.length) return 0;
  const uniqTokensB = tokensB.filter((token) => !tokensA.includes(token));
  const distanceB = uniqTokensB.join(' ').length / tokensB.join(' ').length;
  return 1 - distanceB;
}

function getNodeAncestors(node: ChildNode, maxDepth = 0): ParentNode[] {
  let i = 0;
  const ancestors: ParentNode[] = [];
  let n: AnyNode = node;
  while (n.parent) {
    ancestors.push(n.parent);
    if (maxDepth && ++i === maxDepth) break;
    n = n.parent;
  }
  return ancestors;
}

/** Depth-first walk over elements; `ignoreSelfAndKids` skips node's subtree. */
function getNextNode(node: AnyNode, ignoreSelfAndKids = false): Element | null {
  if (!ignoreSelfAndKids && 'children' in node) {
    const first = firstElementChild(node);
    if (first) return first;
  }
  const sibling = nextElementSibling(node as ChildNode);
  if (sibling) return sibling;
  let n: AnyNode | null = node;
  do {
    n = n.parent;
  } while (n && !nextElementSibling(n as ChildNode));
  return n ? nextElementSibling(n as ChildNode) : null;
}

function removeAndGetNext(node: Element): Element | null {
  const next = getNextNode(node, true);
  removeNode(node);
  return next;
}

/** First node from `node` on that is an element or non-whitespace text. */
function nextNode(node: ChildNode | null): ChildNode | null {
  let next = node;
  while (next && !isTag(next) && RE.whitespace.test(nodeText(next))) next = next.next;
  return next;
}

/**
 * The tag name Readability reads while climbing from the top candidate towards <body>: the Document
 * has none, and past it Readability read a property of null and threw (candidates outside <body>).
 */
function climbName(n: ParentNode | null): string | undefined {
  if (!n) throw new TypeError('climbed past the document');
  return isTag(n) ? n.name : undefined;
}

function asElement(n: ParentNode): Element {
  if (!isTag(n)) throw new TypeError('not an element');
  return n;
}

function hasAncestorTag(node: AnyNode, tagName: string, maxDepth = 3, filterFn?: (el: Element) => boolean): boolean {
  let depth = 0;
  let n: AnyNode = node;
  while (n.parent) {
    if (maxDepth > 0 && depth > maxDepth) return false;
    const p: ParentNode = n.parent;
    if (isTag(p) && p.name === tagName && (!filterFn || filterFn(p))) return true;
    n = p;
    depth++;
  }
  return false;
}

function isSingleImage(node: Element | null): boolean {
  while (node) {
    if (node.name === 'img') return true;
    const kids = elementChildren(node);
    if (kids.length !== 1 || hasText(node)) return false;
    node = kids[0] as Element;
  }
  return false;
}

function isElementWithoutContentBase(node: Element, brHrCount: () => number): boolean {
  if (hasText(node)) return false;
  const kids = elementChildren(node).length;
  return !kids || kids === brHrCount();
}

function unescapeHtmlEntities(str: string | undefined): string | undefined {
  if (!str) return str;
  return str
    .replace(/&(quot|amp|apos|lt|gt);/g, (_, tag: string) => HTML_ESCAPE_MAP[tag] ?? '')
    .replace(/&#(?:x([0-9a-f]+)|([0-9]+));/gi, (_, hex: string | undefined, numStr: string | undefined) => {
      let num = parseInt(hex || numStr || '', hex ? 16 : 10);
      if (num == 0 || num > 0x10ffff || (num >= 0xd800 && num <= 0xdfff)) num = 0xfffd;
      return String.fromCodePoint(num);
    });
}

function isUrl(str: string): boolean {
  try {
    new URL(str);
    return true;
  } catch {
    return false;
  }
}

/** A JSON value's property, as JS would read it (undefined on primitives, throws on null like JS). */
function prop(value: unknown, key: string): unknown {
  if (value === null || value === undefined) throw new TypeError('property of null');
  return typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/** `value.match(re)` as JS evaluates it on a JSON value: strings test, other truthy values throw. */
function jsMatch(value: unknown, re: RegExp): boolean {
  if (typeof value === 'string') return re.test(value);
  throw new TypeError('not a string');
}

class Reader {
  private flags = FLAG_STRIP_UNLIKELYS | FLAG_WEIGHT_CLASSES | FLAG_CLEAN_CONDITIONALLY;
  private readonly scores = new Map<Element, Score>();
  private readonly dataTables = new Map<Element, boolean>();
  private articleTitle = '';
  private articleByline: string | null = null;
  private metadataByline: string | undefined;
  private readonly attempts: Attempt[] = [];
  /** The page div of each attempt's article. */
  private readonly pageDivs = new Map<Element, Element>();

  constructor(private readonly page: Page) {}

  /** Descendants named one of `names`, counted in one walk. */
  private tagCount(root: ParentNode, names: ReadonlySet<string>): number {
    let n = 0;
    const walk = (parent: ParentNode): void => {
      for (const c of parent.children) {
        if (!isTag(c)) continue;
        if (names.has(c.name)) n++;
        if (c.children.length) walk(c);
      }
    };
    walk(root);
    return n;
  }

  private firstTag(root: ParentNode, name: string): Element | null {
    return findFirst(root, (el) => el.name === name);
  }

  private allWithTags(root: ParentNode, names: ReadonlySet<string>): Element[] {
    return findAll(root, (el) => names.has(el.name));
  }

  private flagIsActive(flag: number): boolean {
    return (this.flags & flag) > 0;
  }

  private removeFlag(flag: number): void {
    this.flags &= ~flag;
  }

  /**
   * Readability makes a new element (a DOM cannot rename one); a domhandler element is renamed in
   * place. Replacing it cost a search and a splice in its parent's children: quadratic on a page
   * of many sibling divs (150,000 elements: 5 s of a 7 s extraction).
   */
  private setNodeTag(node: Element, tag: string): Element {
    node.name = tag;
    return node;
  }

  private isElementWithoutContent(node: Element): boolean {
    return isElementWithoutContentBase(node, () => this.tagCount(node, LINE_BREAKS));
  }

  private getClassWeight(e: Element): number {
    if (!this.flagIsActive(FLAG_WEIGHT_CLASSES)) return 0;
    let weight = 0;
    const cls = className(e);
    if (cls !== '') {
      if (RE.negative.test(cls)) weight -= 25;
      if (RE.positive.test(cls)) weight += 25;
    }
    const id = idOf(e);
    if (id !== '') {
      if (RE.negative.test(id)) weight -= 25;
      if (RE.positive.test(id)) weight += 25;
    }
    return weight;
  }

  private initializeNode(node: Element): Score {
    const score: Score = { contentScore: 0 };
    this.scores.set(node, score);
    switch (node.name) {
      case 'div':
        score.contentScore += 5;
        break;
      case 'pre':
      case 'td':
      case 'blockquote':
        score.contentScore += 3;
        break;
      case 'address':
      case 'ol':
      case 'ul':
      case 'dl':
      case 'dd':
      case 'dt':
      case 'li':
      case 'form':
        score.contentScore -= 3;
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
      case 'th':
        score.contentScore -= 5;
        break;
    }
    score.contentScore += this.getClassWeight(node);
    return score;
  }

  /** Set while the tree holds still (scoring) or changes only through removals that invalidate it. */
  private lengths: TextLengths | null = null;

  private newLengths(): TextLengths {
    return new TextLengths((el) => el.name === 'a');
  }

  private textLength(e: ParentNode): number {
    return this.lengths ? this.lengths.length(e) : innerTextLength(e);
  }

  private getLinkDensity(element: Element): number {
    if (this.lengths) {
      const total = this.lengths.length(element);
      return total === 0 ? 0 : this.lengths.linkLength(element) / total;
    }
    const textLength = innerTextLength(element);
    if (textLength === 0) return 0;
    let linkLength = 0;
    for (const link of byTag(element, 'a')) {
      const href = getAttr(link, 'href');
      const coefficient = href && RE.hashUrl.test(href) ? 0.3 : 1;
      linkLength += innerTextLength(link) * coefficient;
    }
    return linkLength / textLength;
  }

  /* ----- document preparation ----- */

  private unwrapNoscriptImages(page: Page): void {
    for (const img of tagsUnder(page, 'img')) {
      let keep = false;
      for (const [name, value] of Object.entries(img.attribs)) {
        if (
          name === 'src' ||
          name === 'srcset' ||
          name === 'data-src' ||
          name === 'data-srcset' ||
          /\.(jpg|jpeg|png|webp)/i.test(value)
        ) {
          keep = true;
          break;
        }
      }
      if (!keep) removeNode(img);
    }
    for (const noscript of tagsUnder(page, 'noscript')) {
      if (!isSingleImage(noscript)) continue;
      // Readability re-parses the noscript's innerHTML into a temporary div: a deep copy.
      const tmp = createElement('div');
      for (const c of noscript.children) appendChild(tmp, cloneNode(c, true));
      const prevElement = previousElementSibling(noscript);
      if (prevElement && isSingleImage(prevElement)) {
        const prevImg = prevElement.name === 'img' ? prevElement : this.firstTag(prevElement, 'img');
        const newImg = this.firstTag(tmp, 'img');
        if (!prevImg || !newImg) continue;
        for (const [name, value] of Object.entries(prevImg.attribs)) {
          if (value === '') continue;
          if (name === 'src' || name === 'srcset' || /\.(jpg|jpeg|png|webp)/i.test(value)) {
            if (getAttr(newImg, name) === value) continue;
            const attrName = hasAttr(newImg, name) ? `data-old-${name}` : name;
            setAttr(newImg, attrName, value);
          }
        }
        const first = firstElementChild(tmp);
        if (first) replaceNode(prevElement, first);
      }
    }
  }

  private getJSONLD(): JsonLdMetadata {
    for (const script of tagsUnder(this.page, 'script')) {
      if (getAttr(script, 'type') !== 'application/ld+json') continue;
      try {
        const found = this.readJsonLd(textContent(script).replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ''));
        if (found) return found;
      } catch {
        // As in Readability: a script that does not parse, or has an unexpected shape, is skipped.
      }
    }
    return {};
  }

  /** One JSON-LD script; null when it is not a schema.org article. Throws where Readability's code would. */
  private readJsonLd(content: string): JsonLdMetadata | null {
    let parsed: unknown = JSON.parse(content);
    if (Array.isArray(parsed)) {
      parsed = parsed.find((it: unknown) => {
        const t = prop(it, '@type');
        return !!t && jsMatch(t, RE.jsonLdArticleTypes);
      });
      if (!parsed) return null;
    }
    const schemaDotOrgRegex = /^https?:\/\/schema\.org\/?$/;
    const context = prop(parsed, '@context');
    let matches = false;
    if (typeof context === 'string') matches = schemaDotOrgRegex.test(context);
    if (!matches && typeof context === 'object') {
      const vocab = prop(context, '@vocab');
      matches = typeof vocab == 'string' && schemaDotOrgRegex.test(vocab);
    }
    if (!matches) return null;
    const graph = prop(parsed, '@graph');
    if (!prop(parsed, '@type') && Array.isArray(graph)) {
      parsed = graph.find((it: unknown) => {
        const t = prop(it, '@type') || '';
        return jsMatch(t, RE.jsonLdArticleTypes);
      });
    }
    if (!parsed) return null;
    const type = prop(parsed, '@type');
    if (!type || !jsMatch(type, RE.jsonLdArticleTypes)) return null;

    const record = parsed as Record<string, unknown>;
    const metadata: JsonLdMetadata = {};
    const name = record['name'];
    const headline = record['headline'];
    if (typeof name === 'string' && typeof headline === 'string' && name !== headline) {
      const title = this.getArticleTitle();
      const nameMatches = textSimilarity(name, title) > 0.75;
      const headlineMatches = textSimilarity(headline, title) > 0.75;
      metadata.title = headlineMatches && !nameMatches ? headline : name;
    } else if (typeof name === 'string') {
      metadata.title = name.trim();
    } else if (typeof headline === 'string') {
      metadata.title = headline.trim();
    }
    const author = record['author'];
    if (author) {
      const authorName = prop(author, 'name');
      if (typeof authorName === 'string') {
        metadata.byline = authorName.trim();
      } else if (Array.isArray(author) && author[0] && typeof prop(author[0], 'name') === 'string') {
        metadata.byline = author
          .filter((a: unknown) => !!a && typeof prop(a, 'name') === 'string')
          .map((a: unknown) => (prop(a, 'name') as string).trim())
          .join(', ');
      }
    }
    return metadata;
  }

  private removeScripts(page: Page): void {
    for (const el of [...tagsUnder(page, 'script'), ...tagsUnder(page, 'noscript')]) removeNode(el);
  }

  private prepDocument(page: Page): void {
    for (const el of tagsUnder(page, 'style')) removeNode(el);
    this.replaceBrs(tagsUnder(page, 'br', page.body));
    for (const font of tagsUnder(page, 'font')) this.setNodeTag(font, 'span');
  }

  /**
   * Readability caches the body's innerHTML before its first attempt and assigns it back before a
   * retry. A retry happens
   * when the first attempt found under 500 characters: about one real page in five, so copying the
   * body up front (~0.2 ms) is cheaper than parsing and preparing the page again when needed.
   */
  private restoreBody(cache: ChildNode[]): void {
    const body = this.page.body;
    removeChildren(body);
    for (const c of cache.splice(0)) appendChild(body, c);
    for (const c of body.children) cache.push(cloneNode(c, true));
  }

  /** Replaces 2 or more successive <br> with a single <p> holding the phrasing content that follows. */
  private replaceBrs(brs: ReadonlyArray<Element>): void {
    for (const br of brs) {
      let next: ChildNode | null = br.next;
      let replaced = false;
      while ((next = nextNode(next)) && isTag(next) && next.name === 'br') {
        replaced = true;
        const brSibling: ChildNode | null = next.next;
        removeNode(next);
        next = brSibling;
      }
      if (!replaced || !br.parent) continue;
      const p = createElement('p');
      replaceNode(br, p);
      next = p.next;
      while (next) {
        if (isTag(next) && next.name === 'br') {
          const nextElem = nextNode(next.next);
          if (nextElem && isTag(nextElem) && nextElem.name === 'br') break;
        }
        if (!isPhrasingContent(next)) break;
        const sibling: ChildNode | null = next.next;
        appendChild(p, next);
        next = sibling;
      }
      while (p.children.length && isWhitespace(p.children[p.children.length - 1] as ChildNode)) {
        removeNode(p.children[p.children.length - 1] as ChildNode);
      }
      const parent = p.parent;
      if (parent && isTag(parent) && parent.name === 'p') this.setNodeTag(parent, 'div');
    }
  }

  private getArticleTitle(): string {
    const titleEl = tagsUnder(this.page, 'title', this.page.head)[0];
    let curTitle = titleEl ? textContent(titleEl) : '';
    curTitle = curTitle.trim();
    const origTitle = curTitle;
    let titleHadHierarchicalSeparators = false;

    if (/ [|\-\\/>»] /.test(curTitle)) {
      titleHadHierarchicalSeparators = / [\\/>»] /.test(curTitle);
      const allSeparators = Array.from(origTitle.matchAll(/ [|\-\\/>»] /gi));
      curTitle = origTitle.substring(0, allSeparators[allSeparators.length - 1]?.index ?? 0);
      if (wordCount(curTitle) < 3) curTitle = origTitle.replace(/^[^|\-\\/>»]*[|\-\\/>»]/gi, '');
    } else if (curTitle.includes(': ')) {
      const trimmedTitle = curTitle.trim();
      const match = [...tagsUnder(this.page, 'h1'), ...tagsUnder(this.page, 'h2')].some(
        (h) => textContent(h).trim() === trimmedTitle,
      );
      if (!match) {
        curTitle = origTitle.substring(origTitle.lastIndexOf(':') + 1);
        if (wordCount(curTitle) < 3) {
          curTitle = origTitle.substring(origTitle.indexOf(':') + 1);
        } else if (wordCount(origTitle.substring(0, origTitle.indexOf(':'))) > 5) {
          curTitle = origTitle;
        }
      }
    } else if (curTitle.length > 150 || curTitle.length < 15) {
      const hOnes = tagsUnder(this.page, 'h1');
      if (hOnes.length === 1) curTitle = getInnerText(hOnes[0] as Element);
    }

    curTitle = curTitle.trim().replace(RE.normalize, ' ');
    const curTitleWordCount = wordCount(curTitle);
    if (
      curTitleWordCount <= 4 &&
      (!titleHadHierarchicalSeparators || curTitleWordCount != wordCount(origTitle.replace(/[|\-\\/>»]+/g, '')) - 1)
    ) {
      curTitle = origTitle;
    }
    return curTitle;
  }

  private getArticleMetadata(jsonld: JsonLdMetadata): void {
    const values = new Map<string, string>();
    const propertyPattern =
      /\s*(article|dc|dcterm|og|twitter)\s*:\s*(author|creator|description|published_time|title|site_name)\s*/gi;
    const namePattern =
      /^\s*(?:(dc|dcterm|og|twitter|parsely|weibo:(article|webpage))\s*[-.:]\s*)?(author|creator|pub-date|description|title|site_name)\s*$/i;
    for (const element of tagsUnder(this.page, 'meta')) {
      const elementName = getAttr(element, 'name');
      const elementProperty = getAttr(element, 'property');
      const content = getAttr(element, 'content');
      if (!content) continue;
      let matches: RegExpMatchArray | null = null;
      if (elementProperty) {
        matches = elementProperty.match(propertyPattern);
        if (matches) values.set((matches[0] as string).toLowerCase().replace(/\s/g, ''), content.trim());
      }
      if (!matches && elementName && namePattern.test(elementName)) {
        values.set(elementName.toLowerCase().replace(/\s/g, '').replace(/\./g, ':'), content.trim());
      }
    }
    const v = (key: string): string | undefined => values.get(key) || undefined;
    let title =
      jsonld.title ||
      v('dc:title') ||
      v('dcterm:title') ||
      v('og:title') ||
      v('weibo:article:title') ||
      v('weibo:webpage:title') ||
      v('title') ||
      v('twitter:title') ||
      v('parsely-title');
    if (!title) title = this.getArticleTitle();
    const articleAuthorValue = values.get('article:author');
    const articleAuthor =
      articleAuthorValue !== undefined && !isUrl(articleAuthorValue) ? articleAuthorValue : undefined;
    const byline =
      jsonld.byline || v('dc:creator') || v('dcterm:creator') || v('author') || v('parsely-author') || articleAuthor;
    this.articleTitle = unescapeHtmlEntities(title) ?? '';
    this.metadataByline = unescapeHtmlEntities(byline);
  }

  /* ----- article cleaning ----- */

  private isProbablyVisible(node: Element): boolean {
    return (
      styleValue(node, 'display') != 'none' &&
      styleValue(node, 'visibility') != 'hidden' &&
      !hasAttr(node, 'hidden') &&
      (!hasAttr(node, 'aria-hidden') ||
        getAttr(node, 'aria-hidden') != 'true' ||
        className(node).includes('fallback-image'))
    );
  }

  private isValidByline(node: Element, matchString: string): boolean {
    const rel = getAttr(node, 'rel');
    const itemprop = getAttr(node, 'itemprop');
    if (!(rel === 'author' || (!!itemprop && itemprop.includes('author')) || RE.byline.test(matchString))) return false;
    const bylineLength = textContent(node).trim().length;
    return !!bylineLength && bylineLength < 100;
  }

  private headerDuplicatesTitle(node: Element): boolean {
    if (node.name !== 'h1' && node.name !== 'h2') return false;
    return textSimilarity(this.articleTitle, getInnerText(node, false)) > 0.75;
  }

  private cleanStyles(e: Element): void {
    if (e.name === 'svg') return;
    for (const attr of PRESENTATIONAL_ATTRIBUTES) removeAttr(e, attr);
    if (DEPRECATED_SIZE_ATTRIBUTE_ELEMS.has(e.name)) {
      removeAttr(e, 'width');
      removeAttr(e, 'height');
    }
    for (const c of e.children) if (isTag(c)) this.cleanStyles(c);
  }

  private getRowAndColumnCount(table: Element): { rows: number; columns: number } {
    let rows = 0;
    let columns = 0;
    for (const tr of byTag(table, 'tr')) {
      const rowspan = getAttr(tr, 'rowspan');
      rows += (rowspan ? parseInt(rowspan, 10) : 0) || 1;
      let columnsInThisRow = 0;
      for (const cell of byTag(tr, 'td')) {
        const colspan = getAttr(cell, 'colspan');
        columnsInThisRow += (colspan ? parseInt(colspan, 10) : 0) || 1;
      }
      columns = Math.max(columns, columnsInThisRow);
    }
    return { rows, columns };
  }

  private markDataTables(root: Element): void {
    for (const table of byTag(root, 'table')) {
      const set = (v: boolean): void => void this.dataTables.set(table, v);
      if (getAttr(table, 'role') == 'presentation') {
        set(false);
        continue;
      }
      if (getAttr(table, 'datatable') == '0') {
        set(false);
        continue;
      }
      if (getAttr(table, 'summary')) {
        set(true);
        continue;
      }
      const caption = this.firstTag(table, 'caption');
      if (caption && caption.children.length) {
        set(true);
        continue;
      }
      if (findFirst(table, (el) => DATA_TABLE_DESCENDANTS.has(el.name))) {
        set(true);
        continue;
      }
      if (this.firstTag(table, 'table')) {
        set(false);
        continue;
      }
      const sizeInfo = this.getRowAndColumnCount(table);
      if (sizeInfo.columns == 1 || sizeInfo.rows == 1) {
        set(false);
        continue;
      }
      if (sizeInfo.rows >= 10 || sizeInfo.columns > 4) {
        set(true);
        continue;
      }
      set(sizeInfo.rows * sizeInfo.columns > 10);
    }
  }

  private fixLazyImages(root: Element): void {
    for (const elem of this.allWithTags(root, LAZY_IMAGE_TAGS)) {
      // linkedom has src/srcset properties on <img> only (attribute value or '').
      const isImg = elem.name === 'img';
      const src = (): string => (isImg ? (getAttr(elem, 'src') ?? '') : '');
      const srcValue = src();
      if (srcValue && RE.b64DataUrl.test(srcValue)) {
        const parts = RE.b64DataUrl.exec(srcValue) as RegExpExecArray;
        if (parts[1] === 'image/svg+xml') continue;
        let srcCouldBeRemoved = false;
        for (const [name, value] of Object.entries(elem.attribs)) {
          if (name === 'src') continue;
          if (/\.(jpg|jpeg|png|webp)/i.test(value)) {
            srcCouldBeRemoved = true;
            break;
          }
        }
        if (srcCouldBeRemoved) {
          const b64length = srcValue.length - parts[0].length;
          if (b64length < 133) removeAttr(elem, 'src');
        }
      }
      const srcset = isImg ? (getAttr(elem, 'srcset') ?? '') : '';
      if ((src() || (srcset && srcset != 'null')) && !className(elem).toLowerCase().includes('lazy')) continue;
      for (const [name, value] of Object.entries(elem.attribs)) {
        if (name === 'src' || name === 'srcset' || name === 'alt') continue;
        let copyTo: string | null = null;
        if (/\.(jpg|jpeg|png|webp)\s+\d/.test(value)) copyTo = 'srcset';
        else if (/^\s*\S+\.(jpg|jpeg|png|webp)\S*\s*$/.test(value)) copyTo = 'src';
        if (!copyTo) continue;
        if (elem.name === 'img' || elem.name === 'picture') {
          setAttr(elem, copyTo, value);
        } else if (elem.name === 'figure' && !this.allWithTags(elem, IMAGE_TAGS).length) {
          const img = createElement('img');
          setAttr(img, copyTo, value);
          appendChild(elem, img);
        }
      }
    }
  }

  /**
   * Readability's _clean for each of `tags` in turn, in one walk: removing an element removes what it
   * holds, so the elements left are the same whichever order the tags are cleaned in.
   */
  private clean(e: Element, tags: ReadonlySet<string>): void {
    const list = this.allWithTags(e, tags);
    for (let i = list.length - 1; i >= 0; i--) {
      const element = list[i] as Element;
      if (!element.parent) continue;
      // Videos from known hosts stay. (Readability's innerHTML check of <object> never ran on
      // linkedom: it compares tagName with "object" in lower case.)
      if (EMBED_TAGS.has(element.name) && Object.values(element.attribs).some((v) => RE.videos.test(v))) continue;
      removeNode(element);
    }
  }

  private cleanConditionally(e: Element, tag: string): void {
    if (!this.flagIsActive(FLAG_CLEAN_CONDITIONALLY)) return;
    const list = byTag(e, tag);
    this.lengths = this.newLengths();
    try {
      for (let i = list.length - 1; i >= 0; i--) {
        const node = list[i] as Element;
        if (!node.parent) continue;
        if (this.shouldCleanConditionally(node, tag)) {
          this.lengths.invalidate(node);
          removeNode(node);
        }
      }
    } finally {
      this.lengths = null;
    }
  }

  /** What _cleanConditionally counts under a node, in one walk (Readability makes one query per item). */
  private census(node: Element): Census {
    const c: Census = {
      p: 0,
      img: 0,
      li: 0,
      input: 0,
      listText: 0,
      headingText: 0,
      textishText: 0,
      embeds: 0,
      videoEmbed: false,
      dataTable: false,
    };
    const lengths = this.lengths;
    const len = (el: Element): number => (lengths ? lengths.length(el) : innerTextLength(el));
    const walk = (parent: Element): void => {
      for (const child of parent.children) {
        if (!isTag(child)) continue;
        const name = child.name;
        if (name === 'p') c.p++;
        else if (name === 'img') c.img++;
        else if (name === 'li') c.li++;
        else if (name === 'input') c.input++;
        else if (name === 'table' && this.dataTables.get(child) === true) c.dataTable = true;
        if (LIST_TAGS.has(name)) c.listText += len(child);
        if (HEADING_TAGS.has(name)) c.headingText += len(child);
        if (TEXTISH_TAGS.has(name)) c.textishText += len(child);
        if (EMBED_TAGS.has(name)) {
          if (Object.values(child.attribs).some((v) => RE.videos.test(v))) c.videoEmbed = true;
          c.embeds++;
        }
        if (child.children.length) walk(child);
      }
    };
    walk(node);
    return c;
  }

  private shouldCleanConditionally(node: Element, tag: string): boolean {
    const isDataTable = (t: Element): boolean => this.dataTables.get(t) === true;
    const census = this.census(node);
    const contentLength = this.textLength(node);
    let isList = tag === 'ul' || tag === 'ol';
    if (!isList) isList = census.listText / contentLength > 0.9;
    if (tag === 'table' && isDataTable(node)) return false;
    if (hasAncestorTag(node, 'table', -1, isDataTable)) return false;
    if (hasAncestorTag(node, 'code')) return false;
    if (census.dataTable) return false;
    if (isQuotedEmbed(node, `${getAttr(node, 'class') ?? ''} ${getAttr(node, 'id') ?? ''}`)) return false;
    // A post's own paragraphs are mostly links (handles, hashtags, t.co URLs): the post is quoted whole.
    if (hasAncestorTag(node, 'blockquote', -1, isEmbeddedPost)) return false;

    const weight = this.getClassWeight(node);
    const contentScore = 0;
    if (weight + contentScore < 0) return true;

    if (getInnerText(node).split(',').length - 1 >= 10) return false;

    const { p, img, input } = census;
    const li = census.li - 100;
    const headingDensity = contentLength === 0 ? 0 : census.headingText / contentLength;

    // An embed from a video host keeps the node; Readability returns as soon as it sees one.
    if (census.videoEmbed) return false;
    const embedCount = census.embeds;

    // The ad/loading word patterns match whole texts of at most 13 characters.
    if (contentLength <= 32) {
      const innerText = getInnerText(node);
      if (RE.adWords.test(innerText) || RE.loadingWords.test(innerText)) return true;
    }
    const linkDensity = this.getLinkDensity(node);
    const textDensity = contentLength === 0 ? 0 : census.textishText / contentLength;
    const isFigureChild = hasAncestorTag(node, 'figure');

    const haveToRemove =
      (!isFigureChild && img > 1 && p / img < 0.5) ||
      (!isList && li > p) ||
      input > Math.floor(p / 3) ||
      (!isList &&
        !isFigureChild &&
        headingDensity < 0.9 &&
        contentLength < 25 &&
        (img === 0 || img > 2) &&
        linkDensity > 0) ||
      (!isList && weight < 25 && linkDensity > 0.2) ||
      (weight >= 25 && linkDensity > 0.5) ||
      (embedCount === 1 && contentLength < 75) ||
      embedCount > 1 ||
      (img === 0 && textDensity === 0);

    // Allow simple lists of images to remain in pages.
    if (isList && haveToRemove) {
      for (const child of elementChildren(node)) {
        if (elementChildren(child).length > 1) return haveToRemove;
      }
      if (img == census.li) return false;
    }
    return haveToRemove;
  }

  private cleanMatchedNodes(e: Element, filter: (node: Element, matchString: string) => boolean): void {
    const endOfSearchMarkerNode = getNextNode(e, true);
    let next = getNextNode(e);
    while (next && next !== endOfSearchMarkerNode) {
      next = filter(next, `${className(next)} ${idOf(next)}`) ? removeAndGetNext(next) : getNextNode(next);
    }
  }

  private cleanHeaders(e: Element): void {
    const headings = this.allWithTags(e, CLEANED_HEADINGS);
    for (let i = headings.length - 1; i >= 0; i--) {
      const node = headings[i] as Element;
      if (node.parent && this.getClassWeight(node) < 0) removeNode(node);
    }
  }

  private prepArticle(articleContent: Element): void {
    this.cleanStyles(articleContent);
    this.markDataTables(articleContent);
    this.fixLazyImages(articleContent);

    this.cleanConditionally(articleContent, 'form');
    this.cleanConditionally(articleContent, 'fieldset');
    this.clean(articleContent, CLEAN_FIRST);

    for (const topCandidate of elementChildren(articleContent)) {
      this.cleanMatchedNodes(
        topCandidate,
        (node, matchString) => RE.shareElements.test(matchString) && textContent(node).length < CHAR_THRESHOLD,
      );
    }

    this.clean(articleContent, CLEAN_AFTER_SHARE);
    this.cleanHeaders(articleContent);

    this.cleanConditionally(articleContent, 'table');
    this.cleanConditionally(articleContent, 'ul');
    this.cleanConditionally(articleContent, 'div');

    for (const h1 of byTag(articleContent, 'h1')) this.setNodeTag(h1, 'h2');

    const paragraphs = byTag(articleContent, 'p');
    for (let i = paragraphs.length - 1; i >= 0; i--) {
      const paragraph = paragraphs[i] as Element;
      if (!paragraph.parent) continue;
      const contentElementCount = this.allWithTags(paragraph, CONTENT_ELEMENTS).length;
      if (contentElementCount === 0 && !hasText(paragraph)) removeNode(paragraph);
    }

    for (const br of byTag(articleContent, 'br')) {
      const next = nextNode(br.next);
      if (next && isTag(next) && next.name === 'p') removeNode(br);
    }

    for (const table of byTag(articleContent, 'table')) {
      const tbody = hasSingleTagInsideElement(table, 'tbody') ? firstElementChild(table) : table;
      if (!tbody || !hasSingleTagInsideElement(tbody, 'tr')) continue;
      const row = firstElementChild(tbody);
      if (!row || !hasSingleTagInsideElement(row, 'td')) continue;
      let cell = firstElementChild(row);
      if (!cell || !table.parent) continue;
      cell = this.setNodeTag(cell, cell.children.every(isPhrasingContent) ? 'p' : 'div');
      replaceNode(table, cell);
    }
  }

  /* ----- the article ----- */

  private grabArticle(): Element | null {
    const page = this.page.body;
    const pageCache = page.children.map((c) => cloneNode(c, true));

    for (;;) {
      const stripUnlikelyCandidates = this.flagIsActive(FLAG_STRIP_UNLIKELYS);
      const elementsToScore: Element[] = [];
      // Readability starts at document.documentElement: none once an attempt removed <html> itself
      // (an unlikely-candidate class on it), and then no retry scans anything either.
      let node: Element | null = firstElementChild(this.page.doc);
      let shouldRemoveTitleHeader = true;

      while (node) {
        const matchString = `${className(node)} ${idOf(node)}`;

        if (!this.isProbablyVisible(node)) {
          node = removeAndGetNext(node);
          continue;
        }
        if (getAttr(node, 'aria-modal') == 'true' && getAttr(node, 'role') == 'dialog') {
          node = removeAndGetNext(node);
          continue;
        }
        if (!this.articleByline && !this.metadataByline && this.isValidByline(node, matchString)) {
          const endOfSearchMarkerNode = getNextNode(node, true);
          let next = getNextNode(node);
          let itemPropNameNode: Element | null = null;
          while (next && next !== endOfSearchMarkerNode) {
            const itemprop = getAttr(next, 'itemprop');
            if (itemprop && itemprop.includes('name')) {
              itemPropNameNode = next;
              break;
            }
            next = getNextNode(next);
          }
          this.articleByline = textContent(itemPropNameNode ?? node).trim();
          node = removeAndGetNext(node);
          continue;
        }
        if (shouldRemoveTitleHeader && this.headerDuplicatesTitle(node)) {
          shouldRemoveTitleHeader = false;
          node = removeAndGetNext(node);
          continue;
        }
        if (stripUnlikelyCandidates) {
          if (
            RE.unlikelyCandidates.test(matchString) &&
            !RE.okMaybeItsACandidate.test(matchString) &&
            !isQuotedEmbed(node, matchString) &&
            !hasAncestorTag(node, 'table') &&
            !hasAncestorTag(node, 'code') &&
            node.name !== 'body' &&
            node.name !== 'a'
          ) {
            node = removeAndGetNext(node);
            continue;
          }
          const role = getAttr(node, 'role');
          if (role !== null && UNLIKELY_ROLES.has(role)) {
            node = removeAndGetNext(node);
            continue;
          }
        }
        const name = node.name;
        if (
          (name === 'div' || name === 'section' || name === 'header' || HEADING_TAGS.has(name)) &&
          this.isElementWithoutContent(node)
        ) {
          node = removeAndGetNext(node);
          continue;
        }
        if (TAGS_TO_SCORE.has(name)) elementsToScore.push(node);

        if (name === 'div') {
          // Put phrasing content into paragraphs.
          let p: Element | null = null;
          let childNode: ChildNode | null = node.children[0] ?? null;
          while (childNode) {
            const nextSibling: ChildNode | null = childNode.next;
            if (isPhrasingContent(childNode)) {
              if (p !== null) {
                appendChild(p, childNode);
              } else if (!isWhitespace(childNode)) {
                p = createElement('p');
                replaceNode(childNode, p);
                appendChild(p, childNode);
              }
            } else if (p !== null) {
              while (p.children.length && isWhitespace(p.children[p.children.length - 1] as ChildNode)) {
                removeNode(p.children[p.children.length - 1] as ChildNode);
              }
              p = null;
            }
            childNode = nextSibling;
          }
          // A div holding only one paragraph is that paragraph.
          if (hasSingleTagInsideElement(node, 'p') && this.getLinkDensity(node) < 0.25) {
            const newNode = elementChildren(node)[0] as Element;
            replaceNode(node, newNode);
            node = newNode;
            elementsToScore.push(node);
          } else if (!hasChildBlockElement(node)) {
            node = this.setNodeTag(node, 'p');
            elementsToScore.push(node);
          }
        }
        node = getNextNode(node);
      }

      // Score paragraphs and give their scores to their ancestors.
      // The tree holds still from here until the article is assembled.
      this.lengths = this.newLengths();
      const candidates: Element[] = [];
      for (const elementToScore of elementsToScore) {
        if (!elementToScore.parent || !isTag(elementToScore.parent)) continue;
        const innerText = getInnerText(elementToScore);
        if (innerText.length < 25) continue;
        const ancestors = getNodeAncestors(elementToScore, 5);
        if (ancestors.length === 0) continue;
        let contentScore = 1;
        contentScore += innerText.split(RE.commas).length;
        contentScore += Math.min(Math.floor(innerText.length / 100), 3);
        ancestors.forEach((ancestor, level) => {
          if (!isTag(ancestor) || !ancestor.parent || !isTag(ancestor.parent)) return;
          let score = this.scores.get(ancestor);
          if (!score) {
            score = this.initializeNode(ancestor);
            candidates.push(ancestor);
          }
          const scoreDivider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
          score.contentScore += contentScore / scoreDivider;
        });
      }

      const scoreOf = (el: Element): number => (this.scores.get(el) as Score).contentScore;
      const topCandidates: Element[] = [];
      for (const candidate of candidates) {
        const score = this.scores.get(candidate) as Score;
        const candidateScore = score.contentScore * (1 - this.getLinkDensity(candidate));
        score.contentScore = candidateScore;
        for (let t = 0; t < N_TOP_CANDIDATES; t++) {
          const aTopCandidate = topCandidates[t];
          if (!aTopCandidate || candidateScore > scoreOf(aTopCandidate)) {
            topCandidates.splice(t, 0, candidate);
            if (topCandidates.length > N_TOP_CANDIDATES) topCandidates.pop();
            break;
          }
        }
      }

      let topCandidate: Element | null = topCandidates[0] ?? null;
      let neededToCreateTopCandidate = false;
      let parentOfTopCandidate: ParentNode | null;

      if (topCandidate === null || topCandidate.name === 'body') {
        topCandidate = createElement('div');
        neededToCreateTopCandidate = true;
        moveChildren(page, topCandidate);
        appendChild(page, topCandidate);
        this.initializeNode(topCandidate);
      } else {
        const alternativeCandidateAncestors: ParentNode[][] = [];
        for (let i = 1; i < topCandidates.length; i++) {
          if (scoreOf(topCandidates[i] as Element) / scoreOf(topCandidate) >= 0.75) {
            alternativeCandidateAncestors.push(getNodeAncestors(topCandidates[i] as Element));
          }
        }
        const MINIMUM_TOPCANDIDATES = 3;
        if (alternativeCandidateAncestors.length >= MINIMUM_TOPCANDIDATES) {
          parentOfTopCandidate = topCandidate.parent;
          while (climbName(parentOfTopCandidate) !== 'body') {
            const ancestor = parentOfTopCandidate as ParentNode;
            let listsContainingThisAncestor = 0;
            for (
              let ancestorIndex = 0;
              ancestorIndex < alternativeCandidateAncestors.length &&
              listsContainingThisAncestor < MINIMUM_TOPCANDIDATES;
              ancestorIndex++
            ) {
              listsContainingThisAncestor += Number(
                (alternativeCandidateAncestors[ancestorIndex] as ParentNode[]).includes(ancestor),
              );
            }
            if (listsContainingThisAncestor >= MINIMUM_TOPCANDIDATES) {
              topCandidate = asElement(ancestor);
              break;
            }
            parentOfTopCandidate = ancestor.parent;
          }
        }
        if (!this.scores.has(topCandidate)) this.initializeNode(topCandidate);

        // A parent whose score goes up while climbing holds more of the content.
        parentOfTopCandidate = topCandidate.parent;
        let lastScore = scoreOf(topCandidate);
        const scoreThreshold = lastScore / 3;
        while (climbName(parentOfTopCandidate) !== 'body') {
          const ancestor = parentOfTopCandidate as ParentNode;
          const parentScore = isTag(ancestor) ? this.scores.get(ancestor) : undefined;
          if (!parentScore) {
            parentOfTopCandidate = ancestor.parent;
            continue;
          }
          if (parentScore.contentScore < scoreThreshold) break;
          if (parentScore.contentScore > lastScore) {
            topCandidate = asElement(ancestor);
            break;
          }
          lastScore = parentScore.contentScore;
          parentOfTopCandidate = ancestor.parent;
        }

        // An only child is replaced by its parent, so that sibling joining sees the parent's siblings.
        parentOfTopCandidate = topCandidate.parent;
        while (
          climbName(parentOfTopCandidate) !== 'body' &&
          elementChildren(parentOfTopCandidate as ParentNode).length == 1
        ) {
          topCandidate = asElement(parentOfTopCandidate as ParentNode);
          parentOfTopCandidate = topCandidate.parent;
        }
        if (!this.scores.has(topCandidate)) this.initializeNode(topCandidate);
      }

      // Siblings of the top candidate that look related join the article.
      const articleContent = createElement('div');
      const topScore = scoreOf(topCandidate);
      const siblingScoreThreshold = Math.max(10, topScore * 0.2);
      parentOfTopCandidate = topCandidate.parent;
      const topClass = className(topCandidate);
      if (parentOfTopCandidate) {
        // Readability walks the live list of children and steps back after moving one out: every
        // sibling is visited once, in order, as walking a copy of the list does.
        for (let sibling of elementChildren(parentOfTopCandidate)) {
          let append = false;
          if (sibling === topCandidate) {
            append = true;
          } else {
            let contentBonus = 0;
            if (className(sibling) === topClass && topClass !== '') contentBonus += topScore * 0.2;
            const siblingScore = this.scores.get(sibling);
            if (siblingScore && siblingScore.contentScore + contentBonus >= siblingScoreThreshold) {
              append = true;
            } else if (sibling.name === 'p') {
              const linkDensity = this.getLinkDensity(sibling);
              const nodeLength = this.textLength(sibling);
              if (nodeLength > 80 && linkDensity < 0.25) {
                append = true;
              } else if (
                nodeLength < 80 &&
                nodeLength > 0 &&
                linkDensity === 0 &&
                getInnerText(sibling).search(/\.( |$)/) !== -1
              ) {
                append = true;
              }
            }
          }
          if (append) {
            if (!ALTER_TO_DIV_EXCEPTIONS.has(sibling.name)) sibling = this.setNodeTag(sibling, 'div');
            appendChild(articleContent, sibling);
          }
        }
      }

      this.lengths = null;
      this.prepArticle(articleContent);

      let pageDiv: Element;
      if (neededToCreateTopCandidate) {
        pageDiv = topCandidate;
      } else {
        pageDiv = createElement('div');
        moveChildren(articleContent, pageDiv);
        appendChild(articleContent, pageDiv);
      }
      setAttr(pageDiv, 'id', 'readability-page-1');
      setAttr(pageDiv, 'class', 'page');
      this.pageDivs.set(articleContent, pageDiv);

      const textLength = innerTextLength(articleContent);
      if (textLength >= CHAR_THRESHOLD) return articleContent;

      // Too little text: put the page back and try again with fewer rules.
      this.restoreBody(pageCache);
      this.attempts.push({ articleContent, textLength });
      if (this.flagIsActive(FLAG_STRIP_UNLIKELYS)) {
        this.removeFlag(FLAG_STRIP_UNLIKELYS);
      } else if (this.flagIsActive(FLAG_WEIGHT_CLASSES)) {
        this.removeFlag(FLAG_WEIGHT_CLASSES);
      } else if (this.flagIsActive(FLAG_CLEAN_CONDITIONALLY)) {
        this.removeFlag(FLAG_CLEAN_CONDITIONALLY);
      } else {
        this.attempts.sort((a, b) => b.textLength - a.textLength);
        const best = this.attempts[0];
        if (!best || !best.textLength) return null;
        return best.articleContent;
      }
    }
  }

  /** Readability turns `javascript:` links into their text (they do nothing once scripts are gone). */
  private fixJavascriptLinks(articleContent: Element): void {
    for (const link of byTag(articleContent, 'a')) {
      const href = getAttr(link, 'href');
      if (!href || href.indexOf('javascript:') !== 0 || !link.parent) continue;
      if (link.children.length === 1 && isText(link.children[0] as ChildNode)) {
        replaceNode(link, createText(textContent(link)));
      } else {
        const container = createElement('span');
        moveChildren(link, container);
        replaceNode(link, container);
      }
    }
  }

  private simplifyNestedElements(articleContent: Element): void {
    let node: Element | null = articleContent;
    while (node) {
      if (node.parent && (node.name === 'div' || node.name === 'section') && !idOf(node).startsWith('readability')) {
        if (this.isElementWithoutContent(node)) {
          node = removeAndGetNext(node);
          continue;
        }
        if (hasSingleTagInsideElement(node, 'div') || hasSingleTagInsideElement(node, 'section')) {
          const child = elementChildren(node)[0] as Element;
          for (const [name, value] of Object.entries(node.attribs)) setAttr(child, name, value);
          replaceNode(node, child);
          node = child;
          continue;
        }
      }
      node = getNextNode(node);
    }
  }

  parse(onTitle?: (title: string) => void): ReadabilityResult | null {
    this.unwrapNoscriptImages(this.page);
    const jsonLd = this.getJSONLD();
    this.removeScripts(this.page);
    this.prepDocument(this.page);
    this.getArticleMetadata(jsonLd);
    onTitle?.(this.articleTitle);

    const articleContent = this.grabArticle();
    if (!articleContent) return null;
    this.fixJavascriptLinks(articleContent);
    this.simplifyNestedElements(articleContent);
    const pageDiv = this.pageDivs.get(articleContent);
    if (!pageDiv) return null;
    return { content: articleContent, pageDiv, title: this.articleTitle };
  }
}

/**
 * Finds the article in `page` (which it rewrites). Null when nothing article-like is found.
 * `onTitle` gets Readability's title once it is known and before the scoring rewrites the page: the
 * last moment the page's headings and byline can be read where the page put them.
 */
export function readArticle(page: Page, onTitle?: (title: string) => void): ReadabilityResult | null {
  return new Reader(page).parse(onTitle);
}
