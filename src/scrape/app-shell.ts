// Telling an app shell (a page whose content scripts render in the browser) from a page that has its content in the HTML.

/** Fewer visible characters than this, with scripts and a mount node, is a page that needs rendering. */
const SHELL_TEXT_LIMIT = 200;
/** So little text that any page with scripts needs rendering, mount node or not. */
const EMPTY_TEXT_LIMIT = 40;

// Elements whose content is not visible text, comments, and tags.
const NON_TEXT = /<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<[^>]*>/gi;
const SCRIPT = /<script\b/i;
// Root nodes frameworks mount into: React/CRA (#root), Vue (#app), Next (#__next), Nuxt (#__nuxt),
// Gatsby (#___gatsby), Svelte/Vite templates, Angular (<app-root>, ng-version), Ember.
const MOUNT_NODE = /<(div|main|section)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|main-app|application|ember-app)["'\s>]|<app-root\b|\bng-version=|\bdata-reactroot\b|\bdata-server-rendered\b/i;
const NOSCRIPT_NOTICE = /<noscript\b[^>]*>[\s\S]{0,500}?\b(enable|turn on|requires?)\b[\s\S]{0,80}?javascript/i;

/** Visible characters (not counting whitespace) of the page, counted up to `stopAt`. */
function visibleTextLength(html: string, stopAt: number): number {
  let count = 0;
  let last = 0;
  NON_TEXT.lastIndex = 0;
  for (let m = NON_TEXT.exec(html); ; m = NON_TEXT.exec(html)) {
    const end = m ? m.index : html.length;
    for (let i = last; i < end; i++) {
      const c = html.charCodeAt(i);
      // Space, tab, CR, LF, FF.
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) count++;
    }
    if (count >= stopAt || !m) return count;
    last = m.index + m[0].length;
  }
}

/**
 * Whether `engine: auto` should render this HTML in a browser: it has scripts, little visible text,
 * and a framework's mount node or a "please enable JavaScript" notice (or next to no text at all).
 */
export function looksLikeAppShell(html: string): boolean {
  if (!SCRIPT.test(html)) return false;
  const text = visibleTextLength(html, SHELL_TEXT_LIMIT);
  if (text >= SHELL_TEXT_LIMIT) return false;
  if (text < EMPTY_TEXT_LIMIT) return true;
  return MOUNT_NODE.test(html) || NOSCRIPT_NOTICE.test(html);
}
