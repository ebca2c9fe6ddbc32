// The rules path of structured extraction (no model): a page's JSON answer filled only from what the page
// states in structured form (JSON-LD, microdata, RDFa, meta tags) and as labelled data in its main content
// (tables, definition lists, "Label: value"). docs/structured-rules.md describes sources, matching, coercion
// and bounds.
import { resolveBaseUrl } from '../../extract/absolutize.js';
import { removeNoise } from '../../extract/clean.js';
import { parsedTags, parsePage, type Element, type Page } from '../../extract/dom.js';
import { extractMainContent } from '../../extract/main-content.js';
import { extractMetadata, type PageMetadata } from '../../extract/metadata.js';
import type { JsonRequest } from '../types.js';
import { isItem, type ContentFacts, type FactItem, type PageFacts } from './facts.js';
import { fillSchema } from './fill.js';
import { flattenPage } from './flatten.js';
import { readJsonLd, type ItemBudget } from './jsonld.js';
import { RULE_LIMITS } from './limits.js';
import { readMeta } from './meta.js';
import { readMicrodata } from './microdata.js';
import { readRdfa } from './rdfa.js';
import { boundedText } from './text.js';
import { readVisible } from './visible.js';

export type { ContentFacts, FactItem, FactValue, LabelledValue, PageFacts, RecordTable } from './facts.js';
export { RULE_LIMITS } from './limits.js';

/** Every item with an id, nested ones too (iterative, visiting each item once); the richest wins a shared id. */
function indexById(items: FactItem[]): Map<string, FactItem> {
  const byId = new Map<string, FactItem>();
  const seen = new Set<FactItem>();
  const stack = [...items];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (seen.has(item)) continue;
    seen.add(item);
    if (item.id && item.props.size > (byId.get(item.id)?.props.size ?? 0)) byId.set(item.id, item);
    for (const values of item.props.values()) for (const v of values) if (isItem(v) && !seen.has(v)) stack.push(v);
  }
  return byId;
}

/** Read before main-content extraction mutates the tree (it removes head/scripts). */
export function readPageFacts(page: Page, baseUrl: string | undefined): PageFacts {
  const budget: ItemBudget = { left: RULE_LIMITS.maxItems };
  const items = [...readJsonLd(page, baseUrl, budget), ...readMicrodata(page, baseUrl, budget)];
  items.push(...readRdfa(page, baseUrl, budget));
  const facts: PageFacts = { items, byId: indexById(items), meta: readMeta(page, baseUrl) };
  const h1 = firstHeading(page);
  if (h1) facts.h1 = h1;
  return facts;
}

/** The first <h1> with text (of the first few), capped: the page's own title for its main thing. */
function firstHeading(page: Page): string | undefined {
  for (const h of parsedTags(page, 'h1').slice(0, RULE_LIMITS.maxHeadingsRead)) {
    const text = boundedText(h, RULE_LIMITS.maxLabelChars * 5);
    if (text) return text;
  }
  return undefined;
}

/** Read from the content root (main content, or body when only_main_content is false). */
export function readContentFacts(root: Element): ContentFacts {
  return readVisible(root);
}

/**
 * The answer: with a schema, an object with every property of the schema (null where the page states nothing
 * that fits); without one, the page's main entity flattened plus its title and description.
 */
export function fillFromFacts(
  request: JsonRequest,
  page: PageFacts,
  content: ContentFacts,
  metadata: PageMetadata,
): Record<string, unknown> {
  if (request.schema) return fillSchema(request.schema, page, content, metadata);
  return flattenPage(page, content, metadata);
}

/** Convenience for tests and the benchmark: parse, read page facts, find main content, read content facts, fill. */
export function extractJsonByRules(html: string, url: string, request: JsonRequest): Record<string, unknown> {
  const page = parsePage(html);
  const base = resolveBaseUrl(page, url);
  const metadata = extractMetadata(page, base);
  const facts = readPageFacts(page, base);
  // As the extraction does for only_main_content (src/scrape/extract/index.ts).
  removeNoise(page, { keepNoscript: true, stripChrome: true });
  const fresh = (): Page => {
    const p = parsePage(html);
    removeNoise(p, { keepNoscript: false });
    return p;
  };
  const { root } = extractMainContent(page, metadata.title, fresh);
  return fillFromFacts(request, facts, readContentFacts(root), metadata);
}
