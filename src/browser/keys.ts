// The key names a `press` action may use: those both automation libraries know (Playwright's and Puppeteer's US
// keyboard layouts), matched without regard to case so that Firecrawl's "ENTER" works.

const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Space',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
] as const;

const BY_LOWER_CASE = new Map<string, string>(NAMED_KEYS.map((key) => [key.toLowerCase(), key]));
const ALIASES = new Map<string, string>([
  ['esc', 'Escape'],
  ['return', 'Enter'],
  ['up', 'ArrowUp'],
  ['down', 'ArrowDown'],
  ['left', 'ArrowLeft'],
  ['right', 'ArrowRight'],
  ['ctrl', 'Control'],
]);

/** The library's name for `key`, or undefined when it is not a key both libraries can press. */
export function canonicalKey(key: string): string | undefined {
  // One printable ASCII character is a key of the US layout both libraries type with.
  if (key.length === 1) return key >= ' ' && key <= '~' ? key : undefined;
  const lower = key.toLowerCase();
  return BY_LOWER_CASE.get(lower) ?? ALIASES.get(lower);
}

/** For messages: the names accepted besides single characters. */
export const KEY_NAMES: readonly string[] = NAMED_KEYS;
