// Removes page chrome (navigation, headers, footers, sidebars, forms, cookie/consent banners) for the main-content
// fallback.
import type { DomElement } from './dom.js';

/** Structural and ARIA markers of chrome; used on whole pages when the article extractor finds too little. */
export const BOILERPLATE_SELECTOR = [
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'dialog',
  'menu',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="search"]',
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[aria-modal="true"]',
].join(',');

/** Class/id words of banners and widgets that are never the content (matched as whole words). */
const CHROME_WORDS =
  /(?:^|[\s_-])(?:cookie|cookies|consent|gdpr|cmp|newsletter|subscribe|subscription|paywall|share|sharing|social|breadcrumbs?|skip-link|skiplink|sidebar|popup|modal|related|recommended|advert|advertisement|ads?|sponsor(?:ed)?|promo|banner|masthead|site-header|site-footer|toolbar|comments?)(?:$|[\s_-])/i;

function looksLikeChrome(el: DomElement): boolean {
  const marker = `${el.getAttribute('class') ?? ''} ${el.id ?? ''}`;
  return marker.length > 1 && CHROME_WORDS.test(marker);
}

/** Strips chrome from `root` in place. Elements containing <main>/<article> are kept whatever their markers say. */
export function removeBoilerplate(root: DomElement): void {
  for (const el of Array.from(root.querySelectorAll(BOILERPLATE_SELECTOR))) {
    if (!el.parentNode) continue;
    if (el.querySelector('main, article, [role="main"]')) continue;
    el.remove();
  }
  for (const el of Array.from(root.querySelectorAll('[class], [id]'))) {
    if (
      !el.parentNode ||
      el.nodeName === 'BODY' ||
      el.nodeName === 'HTML' ||
      el.nodeName === 'MAIN' ||
      el.nodeName === 'ARTICLE'
    )
      continue;
    if (!looksLikeChrome(el)) continue;
    if (el.querySelector('main, article, [role="main"], h1')) continue;
    el.remove();
  }
}
