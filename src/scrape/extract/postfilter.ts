// Removes boilerplate that article extractors keep inside the content: navigation, captions, datelines,
// share/related/newsletter blocks.
import {
  byTag,
  collapsedTextLength,
  collapseWhitespace,
  elementChildren,
  findAll,
  findFirst,
  firstElementChild,
  getAttr,
  isTag,
  isText,
  lastElementChild,
  parentElement,
  removeNode,
  textContent,
  wordCountOf,
  type ChildNode,
  type Element,
} from './dom.js';
import { isDateOnly, MAX_DATE_LINE_CHARS } from './dateline.js';

/**
 * Page chrome that can sit inside an <article>: breadcrumbs, header band (byline/date), sidebars, and
 * captions left without their figure's image (video-player and promo labels). The caption of an image
 * is part of the article; the byline is put back by main-content.ts.
 */
const STRUCTURAL_TAGS = new Set(['nav', 'aside', 'footer', 'form', 'dialog', 'header']);
const STRUCTURAL_ROLES = new Set(['navigation', 'complementary', 'contentinfo']);

/** A <figcaption> whose <figure> still shows an image, video or embed. */
function isMediaCaption(el: Element): boolean {
  const figure = parentElement(el);
  return figure !== null && figure.name === 'figure' && findFirst(figure, isMedia) !== null;
}

function isStructural(el: Element): boolean {
  if (STRUCTURAL_TAGS.has(el.name)) return true;
  if (el.name === 'figcaption') return !isMediaCaption(el);
  const role = getAttr(el, 'role');
  return role !== null && STRUCTURAL_ROLES.has(role);
}

/**
 * Class/id words of in-article widgets. Matched as whole words of the class (see classWords), so
 * "share-bar" and "c-related__list" match while "shared-content" or "unrelated" do not.
 */
const WIDGET_WORDS = new Set([
  'share',
  'sharing',
  'social',
  'sharebar',
  'related',
  'recirc',
  'recirculation',
  'newsletter',
  'subscribe',
  'subscription',
  'signup',
  'promo',
  'byline',
  'dateline',
  'timestamp',
  'breadcrumb',
  'breadcrumbs',
  'tags',
  'caption',
  'credit',
  'credits',
  'teaser',
  'outbrain',
  'taboola',
  'advert',
  'advertisement',
  'sponsored',
  'readmore',
  'rail',
  'disclaimer',
  'bio',
  'author',
  'comments',
  'print',
  'copyright',
  // Hover cards: a person's or term's card (photo, name, latest headlines) written inside the
  // sentence that names them and shown only on hover ("rollover-people-block", "hovercard",
  // "popover", "tooltip"); as text it splits the sentence with a list of headlines.
  'rollover',
  'hovercard',
  'popover',
  'tooltip',
  // Ad slots ("ad-container", "ad slot"; whole words, so "add", "head" or "loadMore" never match) and
  // the notices a script replaces ("slideshow-noscript": "This slideshow requires JavaScript"), and
  // "robots-nocontent", the class publishers put on what is not the page's content.
  'ad',
  'ads',
  'noscript',
  'nocontent',
]);

/** Words of class and id, split on space, "-", "_" and camelCase ("imageCaption" -> image, caption). */
function classWords(el: Element): string[] {
  const marker = `${getAttr(el, 'class') ?? ''} ${getAttr(el, 'id') ?? ''}`;
  return marker
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

function linkTextLen(el: Element): number {
  let n = 0;
  for (const a of byTag(el, 'a')) n += collapsedTextLength(a);
  return n;
}

/** Removes candidates unless they hold a large share of the content (then the marker is a false positive). */
function removeSmall(candidates: ReadonlyArray<Element>, total: number, maxShare: number): void {
  const max = total * maxShare;
  for (const el of candidates) {
    if (!el.parent) continue;
    if (collapsedTextLength(el, max) <= max) removeNode(el);
  }
}

/** Like findAll, without looking inside elements named `skip` (nor at them). */
function findAllOutside(root: Element, test: (el: Element) => boolean, skip: string): Element[] {
  const out: Element[] = [];
  const walk = (parent: Element): void => {
    for (const c of parent.children) {
      if (!isTag(c) || c.name === skip) continue;
      if (test(c)) out.push(c);
      if (c.children.length) walk(c);
    }
  };
  walk(root);
  return out;
}

export interface PostFilterOptions {
  /**
   * Rules left out, by the names tested in postFilter ('structural', 'classes', 'datelines', ...).
   * Only tests use it: boilerplate-rules.test.ts times the line-block rules alone on hostile markup.
   */
  skip?: ReadonlySet<string>;
}

const LINK_DENSE_TAGS = new Set(['ul', 'ol', 'p', 'div', 'section', 'dl', 'table']);
const CARD_CONTAINER_TAGS = new Set(['div', 'ul', 'section']);

export function postFilter(root: Element, opts: PostFilterOptions = {}): void {
  const skip = opts.skip ?? new Set<string>();
  const total = Math.max(1, collapsedTextLength(root));

  if (!skip.has('structural')) removeSmall(findAll(root, isStructural), total, 0.3);

  if (!skip.has('classes')) {
    const hits: Element[] = [];
    // Figure captions are content whatever their classes say ("wp-caption-text", "credit").
    for (const el of findAllOutside(
      root,
      (e) => getAttr(e, 'class') !== null || getAttr(e, 'id') !== null,
      'figcaption',
    )) {
      const words = classWords(el);
      if (!words.some((w) => WIDGET_WORDS.has(w))) continue;
      // Embedded posts (tweets, Instagram) sit in "social-embed" wrappers but are quoted content.
      if (words.includes('embed') || findFirst(el, (e) => e.name === 'blockquote')) continue;
      // A figure with its image ("wp-caption" on the <figure>) is content too.
      if (el.name === 'figure' && findFirst(el, isMedia)) continue;
      hits.push(el);
    }
    removeSmall(hits, total, 0.15);
  }

  if (!skip.has('datelines')) {
    for (const time of byTag(root, 'time')) {
      // The smallest block around a <time> that is still short: a dateline, not a sentence mentioning a date.
      let block: Element = time;
      for (
        let parent = parentElement(block);
        parent && parent !== root && wordCountOf(parent, 25) <= 25;
        parent = parentElement(block)
      ) {
        block = parent;
      }
      if (block.parent && wordCountOf(block, 25) <= 25) removeNode(block);
    }
  }

  if (!skip.has('datelines') || !skip.has('labels') || !skip.has('shortcodes')) {
    removeLineBlocks(root, {
      dates: !skip.has('datelines'),
      labels: !skip.has('labels'),
      shortcodes: !skip.has('shortcodes'),
    });
  }

  if (!skip.has('orphanheadings')) removeOrphanHeadings(root);

  if (!skip.has('linkdense')) {
    const max = total * 0.3;
    for (const el of findAll(root, (e) => LINK_DENSE_TAGS.has(e.name))) {
      if (!el.parent) continue;
      // Only blocks holding at most 30% of the text are removed: larger ones are not measured further.
      const len = collapsedTextLength(el, max);
      if (len === 0 || len > max) continue;
      const density = linkTextLen(el) / len;
      const isList = el.name === 'ul' || el.name === 'ol' || el.name === 'dl';
      // Lists of links (related stories, breadcrumbs) and link-only paragraphs ("READ MORE: ...").
      if ((isList && density >= 0.7) || (density >= 0.8 && (el.name !== 'p' || wordCountOf(el, 40) <= 40)))
        removeNode(el);
    }
  }

  if (!skip.has('cards')) removeCardLists(root, total);
  if (!skip.has('edges')) trimEdges(root);
}

/** Blocks that can be a date line or a label on their own (headings are not: live blogs title entries with times). */
const LINE_BLOCK_TAGS = new Set(['p', 'div', 'li', 'dd']);

/**
 * Labels of ad slots, galleries, players and comment widgets, as a whole block's text (lower case,
 * trailing ":", "." and "…" removed): the label of an ad whose ad is gone ("Advertisement", "Anzeige",
 * "Iklan", "Story continues below"), a gallery's buttons and counter ("Caption", "Close",
 * "Image 1 of / 23", "1 of 6"), "Loading ...", "Read more", "12 comments". No sentence is one of
 * these alone.
 */
const UI_LABELS = new Set([
  'advertisement',
  'advertisements',
  'advert',
  'adverts',
  'ad',
  'ads',
  'sponsored',
  'anzeige',
  'werbung',
  'publicité',
  'publicidad',
  'publicidade',
  'pubblicità',
  'reklama',
  'reklame',
  'iklan',
  'advertentie',
  'continue reading below',
  'story continues below',
  'article continues below',
  'content continues below',
  'continue reading below advertisement',
  'story continues below advertisement',
  'article continues below advertisement',
  'advertisement continue reading below',
  'advertisement story continues below',
  'scroll to continue with content',
  'caption',
  'close',
  'hide caption',
  'show caption',
  'toggle caption',
  'enlarge',
  'enlarge this image',
  'expand',
  'fullscreen',
  'full screen',
  'next',
  'previous',
  'prev',
  'next slide',
  'previous slide',
  'loading',
  'loading content',
  'read more',
  'show more',
  'load more',
  'see more',
  'view comments',
  'comments',
  'leave a comment',
  'add a comment',
  'back to top',
  'skip advertisement',
  'skip ad',
  // Titles of recirculation boxes, left alone in a block when their links are gone or set apart.
  "don't miss",
  'don’t miss',
  'related',
  'related articles',
  'related stories',
  'related news',
  'related posts',
  'read also',
  'also read',
  'see also',
  'more stories',
  'more news',
  'recommended',
  'recommended for you',
  'you may also like',
  'you might also like',
  'most read',
  'most popular',
  'trending',
  'trending now',
  'top stories',
  'latest news',
  'breaking news',
  "editor's picks",
  'editor’s picks',
  'highlights',
]);
const UI_COUNTER =
  /^(?:(?:image|photo|picture|slide|foto|bild)\s+)?\d+\s*(?:of|\/|von|de|sur)\s*\/?\s*\d+$|^\d+\s+comments?$/;

/** Reading-time notes: "5 min read", "Reading time: 1 minute", "Tempo de leitura: 1 minuto", "Lesezeit: 3 Minuten". */
const READING_TIME =
  /^(?:(?:estimated )?(?:reading time|read time|time to read|lesezeit|tempo de leitura|temps de lecture|tiempo de lectura)\s*:?\s*)?(?:less than |about |approx\.? |ca\.? |~\s*)?\d+\s*(?:-\s*\d+\s*)?(?:min|mins|minute|minutes|minuto|minutos|minuten|minute)\.?(?:\s+(?:read|reading|de leitura|de lectura|de lecture|lesezeit))?$/;

function isUiLabel(text: string): boolean {
  if (text.length > 60) return false;
  const t = text.toLowerCase().replace(/[\s:.…]+$/u, '');
  return UI_LABELS.has(t) || UI_COUNTER.test(t) || READING_TIME.test(t);
}

/**
 * A WordPress shortcode left unrendered (its plugin is off), as a whole block: "[button
 * link="..." type="big"]Send us your review[/button]", "[newsletter_form list=2]". It is a widget's
 * markup, not text. Caption shortcodes hold captions and are not matched.
 */
const SHORTCODE = /^\[(?!caption\b)([a-z][\w-]*)(?:\s[^\]]*)?\](?:[^[\]]*\[\/\1\])?$/i;
const SHORTCODE_ATTR = /^\[[a-z][\w-]*\s+[\w-]+\s*=/i;

function isShortcode(text: string): boolean {
  // Paired ("[x ...]...[/x]") or with attributes ("[x a=b]"): "[1]" or "[sic]" alone are not shortcodes.
  return SHORTCODE.test(text) && (/\[\/[a-z][\w-]*\]$/i.test(text) || SHORTCODE_ATTR.test(text));
}

/**
 * Blocks that are only a date line, only a widget's label or only a shortcode.
 *
 * Datelines without a <time>: a block whose whole text is a date/time and its labels ("Updated: Sat
 * 8:31 PM, Feb 17, 2018", "sexta-feira, 22 de outubro de 2010 às 20:13"; `isDateOnly`). A reader
 * does not read it as article text; a date inside a sentence is never a whole block.
 *
 * Labels: a block whose whole text is one of UI_LABELS or a gallery counter (`isUiLabel`).
 *
 * One post-order walk: each element gets its children's text only while it is short (the cap), so
 * the cost is linear in the tree, whatever its depth or width.
 */
function removeLineBlocks(root: Element, rules: { dates: boolean; labels: boolean; shortcodes: boolean }): void {
  const cap = 2 * MAX_DATE_LINE_CHARS;
  const hits: Element[] = [];
  const walk = (el: Element): string | null => {
    let text: string | null = '';
    for (const c of el.children) {
      if (isTag(c)) {
        const t = walk(c);
        text = text === null || t === null ? null : `${text} ${t}`;
      } else if (isText(c) && text !== null) text += c.data;
      if (text !== null && text.length > cap) text = null;
    }
    if (text === null || isMedia(el)) return null;
    if (LINE_BLOCK_TAGS.has(el.name) && el !== root) {
      const line = collapseWhitespace(text);
      if (
        (rules.dates && isDateOnly(line)) ||
        (rules.labels && isUiLabel(line)) ||
        (rules.shortcodes && isShortcode(line))
      )
        hits.push(el);
    }
    return text;
  };
  walk(root);
  for (const el of hits) removeNode(el);
}

const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Nodes looked at after a heading for its section's first text: a section starts at once. */
const SECTION_LOOKAHEAD = 40;

/** The node after `node` in document order within `root`, its descendants included or not. */
function nextNode(node: ChildNode, root: Element, intoChildren: boolean): ChildNode | null {
  if (intoChildren && isTag(node) && node.children.length) return node.children[0] as ChildNode;
  for (let n: ChildNode | null = node; n && n !== root; n = n.parent as ChildNode | null) {
    if (n.next) return n.next as ChildNode;
    if (n.parent === root) return null;
  }
  return null;
}

/**
 * Orphan headings: an h2-h6 of ≤ 12 words whose section is empty, followed, before any text or
 * media, by a heading of the same or a higher rank or by the end of the content. They are the
 * titles of widgets whose items the rules above removed ("You may also like", "Related news",
 * "More:", "Latest news", "Subscribe"). A section heading followed by its subheading (h2 then h3)
 * is not one. At most SECTION_LOOKAHEAD nodes are looked at after each heading (then it stays), so
 * the cost is linear.
 */
function removeOrphanHeadings(root: Element): void {
  const orphans: Element[] = [];
  for (const h of findAll(root, (e) => e.name in HEADING_LEVEL && e.name !== 'h1')) {
    if (wordCountOf(h, 12) > 12) continue;
    const level = HEADING_LEVEL[h.name] as number;
    let orphan = false;
    let n = nextNode(h, root, false);
    for (let steps = 0; ; steps++) {
      if (!n) {
        orphan = true;
        break;
      }
      if (steps >= SECTION_LOOKAHEAD) break;
      if (isText(n)) {
        if (/\S/.test(n.data)) break;
      } else if (isTag(n)) {
        const other = HEADING_LEVEL[n.name];
        if (other !== undefined) {
          orphan = other <= level;
          break;
        }
        if (isMedia(n)) break;
      }
      n = nextNode(n, root, isTag(n));
    }
    if (orphan) orphans.push(h);
  }
  for (const h of orphans) removeNode(h);
}

/**
 * Recirculation rails: three or more sibling items with the same class, each a link plus a short
 * headline. Real article text is not laid out as uniform linked cards.
 */
function removeCardLists(root: Element, total: number): void {
  for (const container of findAll(root, (e) => CARD_CONTAINER_TAGS.has(e.name))) {
    if (!container.parent) continue;
    const kids = elementChildren(container);
    if (kids.length < 3) continue;
    const cls = kids[0] ? getAttr(kids[0], 'class') : null;
    if (!cls || !kids.every((k) => getAttr(k, 'class') === cls)) continue;
    const cardLike = kids.every(
      (k) => findFirst(k, (e) => e.name === 'a' && getAttr(e, 'href') !== null) !== null && wordCountOf(k, 30) <= 30,
    );
    const max = total * 0.3;
    if (cardLike && collapsedTextLength(container, max) <= max) removeNode(container);
  }
}

/** [pattern, max words]: bylines/datelines/credits are short; calls to action a little longer. */
const EDGE_PATTERNS: ReadonlyArray<readonly [RegExp, number]> = [
  [
    /^(?:by|von|par|por|posted|published|updated|last (?:modified|updated)|filed under|source|image|photo|credit)\b/i,
    15,
  ],
  [/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b.*\b\d{1,2}[:.]\d{2}\b/i, 15],
  // Affiliate disclosures, at the top or the bottom of blog posts ("This post may contain affiliate links").
  [
    /\b(?:may contain|contains|includes|uses|use) (?:affiliate|referral)\b|\baffiliate links?\b.*\b(?:commission|disclosure)\b/i,
    60,
  ],
  [
    /\b(?:you (?:may|might) also like|related (?:articles|stories|posts|news)|read more|see also|more from|recommended|sign up|subscribe|newsletter|follow (?:us|me|him|her)|share this|all rights reserved|copyright|©)\b/i,
    30,
  ],
];

const LEAF_BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'pre', 'table', 'figure']);
const MEDIA_TAGS = new Set(['img', 'video', 'iframe', 'picture']);
const isMedia = (e: Element): boolean => MEDIA_TAGS.has(e.name);

function lastBlock(root: Element, fromEnd: boolean): Element | null {
  let el: Element | null = fromEnd ? lastElementChild(root) : firstElementChild(root);
  // Descend through wrappers to the first/last leaf-ish block.
  while (el && !LEAF_BLOCKS.has(el.name)) {
    const next: Element | null = fromEnd ? lastElementChild(el) : firstElementChild(el);
    if (!next) break;
    el = next;
  }
  return el;
}

/**
 * How a closing pitch to the reader starts: "If you enjoyed this article, ... Join ...", "Get
 * access to ...", "Subscribe to ...", "Sign up for ...", "Join our ...", "Click here to ...",
 * "Follow our full coverage of ...", "Support our journalism"; and a short paragraph (≤ 40 words)
 * with "click here" anywhere ("Get the magazine every month for £11.99. Click here for more").
 */
const CLOSING_PITCH =
  /^(?:if you (?:enjoyed|liked|value|appreciate|found)\b|(?:get|gain) (?:unlimited |full |instant )?access to\b|subscribe (?:to|now|today)\b|sign up (?:for|to|now|today)\b|join (?:our|us)\b|click here\b|follow (?:our|\S+['’]s) (?:full |complete |live )?coverage\b|support (?:our|independent) journalism\b)/i;

/** A paragraph whose text is all in links (whitespace and ≤ 3 other characters aside). */
function isLinkOnly(block: Element, text: string): boolean {
  return text.length > 0 && linkTextLen(block) >= text.replace(/\s+/g, '').length - 3;
}

const ITALIC_TAGS = new Set(['em', 'i', 'cite']);
const AMENDMENT = /^(?:correction|clarification|update|editor['’]?s note)/i;

/**
 * Whether a block is a note set in italics: its words are in <em>/<i>/<cite>, or in links between
 * them ("*Follow us on* [Instagram](...) *and* [YouTube](...)"), at most 3 other characters (the
 * punctuation between them) and at least as many italic characters as linked ones. The end of an
 * article is where sites put such notes: the author's bio, "Join our forums", "Follow us on ...",
 * "This post may contain affiliate links", "Additional reporting by". Callers bound the block's
 * size (≤ 80 words), so the walk is short.
 */
function isItalicNote(block: Element): boolean {
  let italic = 0;
  let linked = 0;
  let other = 0;
  const walk = (el: Element, inItalic: boolean, inLink: boolean): void => {
    for (const c of el.children) {
      if (isTag(c)) walk(c, inItalic || ITALIC_TAGS.has(c.name), inLink || c.name === 'a');
      else if (isText(c)) {
        const n = c.data.replace(/\s+/g, '').length;
        if (inItalic) italic += n;
        else if (inLink) linked += n;
        else other += n;
      }
    }
  };
  walk(block, ITALIC_TAGS.has(block.name), block.name === 'a');
  return italic > 0 && italic >= linked && other <= 3;
}

/** Short blocks at the very start or end that read like bylines, datelines, credits or calls to action. */
function trimEdges(root: Element): void {
  for (const fromEnd of [false, true]) {
    for (let i = 0; i < 6; i++) {
      const block = lastBlock(root, fromEnd);
      if (!block || block === root) break;
      // Every rule below needs at most 80 words: longer blocks are not counted further.
      const words = wordCountOf(block, 80);
      const isHeading = /^h[1-6]$/.test(block.name);
      // Images at the edges are content, and so is a figure's caption.
      if (block.name === 'figure' && findFirst(block, isMedia)) break;
      if (block.name === 'img' || block.name === 'figure' || findFirst(block, (e) => e.name === 'img')) {
        if (words === 0) break;
      }
      const empty = words === 0 && !findFirst(block, (e) => MEDIA_TAGS.has(e.name));
      const text = words > 0 && words <= 80 ? collapseWhitespace(textContent(block)) : '';
      const boiler = words > 0 && EDGE_PATTERNS.some(([re, max]) => words <= max && re.test(text));
      // The closing pitch: a paragraph that asks the reader to subscribe, sign up, join or click, or
      // a paragraph that is one link (a subscription offer), at the end only.
      const pitch =
        fromEnd &&
        words > 0 &&
        words <= 80 &&
        (CLOSING_PITCH.test(text) ||
          (words <= 40 && /\bclick here\b/i.test(text)) ||
          (block.name === 'p' && isLinkOnly(block, text)));
      const danglingHeading = fromEnd && isHeading && words <= 12;
      // A closing note in italics (author bio, promo, affiliate disclosure), not a quote or a list.
      // Corrections and updates amend the article and stay ("*Correction added Nov. 18: ...*").
      const italicNote =
        fromEnd &&
        words > 0 &&
        words <= 80 &&
        (block.name === 'p' || block.name === 'div') &&
        isItalicNote(block) &&
        !AMENDMENT.test(collapseWhitespace(textContent(block)));
      if (!(empty || boiler || danglingHeading || italicNote || pitch)) break;
      // Remove the block and any wrappers it leaves empty.
      let target: Element = block;
      for (
        let parent = parentElement(target);
        parent && parent !== root && elementChildren(parent).length === 1;
        parent = parentElement(target)
      ) {
        target = parent;
      }
      removeNode(target);
    }
  }
}
