// Removes page chrome (navigation, headers, footers, sidebars, forms, cookie/consent banners) for the main-content
// fallback.
import { findAll, findFirst, getAttr, removeNode, type Element } from './dom.js';

/** Structural and ARIA markers of chrome; used on whole pages when the article extractor finds too little. */
const BOILERPLATE_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form', 'dialog', 'menu']);
const BOILERPLATE_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
]);

function isBoilerplate(el: Element): boolean {
  if (BOILERPLATE_TAGS.has(el.name)) return true;
  const role = getAttr(el, 'role');
  return (role !== null && BOILERPLATE_ROLES.has(role)) || getAttr(el, 'aria-modal') === 'true';
}

/** Class/id words of banners and widgets that are never the content (matched as whole words). */
const CHROME_WORDS =
  /(?:^|[\s_-])(?:cookie|cookies|consent|gdpr|cmp|newsletter|subscribe|subscription|paywall|share|sharing|social|breadcrumbs?|skip-link|skiplink|sidebar|popup|modal|related|recommended|advert|advertisement|ads?|sponsor(?:ed)?|promo|banner|masthead|site-header|site-footer|toolbar|comments?)(?:$|[\s_-])/i;

function looksLikeChrome(el: Element): boolean {
  const marker = `${getAttr(el, 'class') ?? ''} ${getAttr(el, 'id') ?? ''}`;
  return marker.length > 1 && CHROME_WORDS.test(marker);
}

const isMainMarker = (e: Element): boolean =>
  e.name === 'main' || e.name === 'article' || getAttr(e, 'role') === 'main';

/** Whether `el` contains an article, main content or the page's <h1>: such an element is never chrome. */
export function holdsArticle(el: Element): boolean {
  return findFirst(el, (e) => isMainMarker(e) || e.name === 'h1') !== null;
}

/** Strips chrome from `root` in place. Elements containing <main>/<article> are kept whatever their markers say. */
export function removeBoilerplate(root: Element): void {
  for (const el of findAll(root, isBoilerplate)) {
    if (!el.parent) continue;
    if (findFirst(el, isMainMarker)) continue;
    removeNode(el);
  }
  for (const el of findAll(root, (e) => getAttr(e, 'class') !== null || getAttr(e, 'id') !== null)) {
    if (!el.parent || el.name === 'body' || el.name === 'html' || el.name === 'main' || el.name === 'article') continue;
    if (!looksLikeChrome(el)) continue;
    if (holdsArticle(el)) continue;
    removeNode(el);
  }
}
