// Matching a schema name to an item by structure rather than by word lists, tried only when neither the name
// nor its synonym group finds anything (see entityValues in match.ts):
//
// 1. a name that is the item's own type ('album' on a MusicAlbum, 'dataset' on a Dataset) is its name;
// 2. a count (`<x>_count`, `num_<x>`, `number_of_<x>`, `<x>_total`) is a stated `numberOf<X>`/`num<X>`/
//    `<x>Count`, an InteractionCounter whose action is <x> ('like_count' <- LikeAction), the `numberOfItems` of
//    the ItemList <x> names, or how many things <x> names;
// 3. a compound `<x>_<part>` ('seller_name', 'audio_url', 'dealer_phone') is that part of the thing <x> names
//    (by property, or a nested thing of type <x>: AudioObject for 'audio');
// 4. a name whose words end (or start) one property's camel-case words is that property ('artist' <- byArtist,
//    'season' <- partOfSeason, 'doors' <- numberOfDoors, 'mileage' <- mileageFromOdometer); two such
//    properties: none;
//    a short name that is the initials of one property's words ('vin' <- vehicleIdentificationNumber);
// 5. a name that is a nested thing's type ('dealer' <- the offer's seller, an AutoDealer).
import { deref, isItem, type FactItem, type FactValue } from './facts.js';
import { normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { memoized } from './memo.js';

/** How the structural lookup reads an item's property by schema name (entityValues, passed in: no cycle). */
export type Lookup = (item: FactItem, name: string) => FactValue[];

/** Words of a name or property: snake/camel split, lower case ('byArtist' -> by, artist). */
const words: (text: string) => readonly string[] = memoized((text) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== ''),
);

/** 'tracks' -> 'track', 'doors' -> 'door'; 'address', 'status' stay. */
function singular(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') ? w.slice(0, -1) : w;
}

/** Type words that say nothing about what the thing is. */
const VAGUE_TYPE_WORDS = new Set(['thing', 'object', 'creative', 'work', 'web', 'page', 'local', 'action', 'item']);

/** Other words clients use for a type word: a Store is a shop, a dentist a practice, an Event a conference. */
const TYPE_WORD_ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['store', ['shop']],
  ['dentist', ['practice', 'clinic']],
  ['physician', ['practice', 'clinic']],
  ['medical', ['practice', 'clinic']],
  ['event', ['conference', 'festival']],
  // A line-up's acts: a band, a solo artist.
  ['group', ['band', 'artist', 'act']],
  ['person', ['artist', 'act']],
  ['howto', ['guide', 'tutorial']],
  ['discussionforumposting', ['topic', 'thread', 'post']],
  ['socialmediaposting', ['post']],
]);

/** The words of an item's types ('MusicAlbum' -> musicalbum, music, album), with their aliases. */
const TYPE_WORDS = new WeakMap<FactItem, ReadonlySet<string>>();

export function typeWords(item: FactItem): ReadonlySet<string> {
  const known = TYPE_WORDS.get(item);
  if (known) return known;
  const out = new Set<string>();
  for (const type of item.types) {
    out.add(normalizeKey(type));
    for (const alias of TYPE_WORD_ALIASES.get(normalizeKey(type)) ?? []) out.add(alias);
    for (const w of words(type)) {
      if (w.length <= 2 || VAGUE_TYPE_WORDS.has(w)) continue;
      out.add(w);
      for (const alias of TYPE_WORD_ALIASES.get(w) ?? []) out.add(alias);
    }
  }
  TYPE_WORDS.set(item, out);
  return out;
}

/** Nested things of the item (two levels down, breadth first, bounded) whose type has this word. */
function nestedOfType(item: FactItem, word: string, byId: ReadonlyMap<string, FactItem>): FactItem[] {
  const out: FactItem[] = [];
  const seen = new Set<FactItem>([item]);
  let level: FactItem[] = [item];
  for (let depth = 0; depth < 2 && level.length; depth++) {
    const next: FactItem[] = [];
    for (const it of level) {
      for (const values of it.props.values()) {
        for (const raw of values.slice(0, 50)) {
          const v = deref(raw, byId);
          if (!isItem(v) || seen.has(v) || seen.size > RULE_LIMITS.maxValuesPerProp) continue;
          seen.add(v);
          next.push(v);
          // A ListItem's item is read with its position by the list readers (entities.ts), not here.
          if (typeWords(v).has(word) && !it.types.includes('ListItem')) out.push(v);
        }
      }
    }
    // The nearest things of that type win: a seller one level down before a seller's parent organisation.
    if (out.length) return out;
    level = next;
  }
  return out;
}

const COUNT_PATTERNS: ReadonlyArray<RegExp> = [
  /^(?:num|number of|no of|count of|total) (.+)$/,
  /^(.+?) (?:count|total)$/,
];

/** The counted thing of a count name ('track_count' -> track), or null. */
function countedOf(tokens: readonly string[]): string | null {
  const phrase = tokens.join(' ');
  for (const re of COUNT_PATTERNS) {
    const m = re.exec(phrase);
    if (m) return m[1] as string;
  }
  return null;
}

/** Interaction types a count name may call otherwise ('views' count WatchActions). */
const ACTION_ALIASES: Record<string, string> = {
  view: 'watch',
  play: 'listen',
  listen: 'listen',
  share: 'share',
  subscriber: 'subscribe',
  reply: 'comment',
  follower: 'follow',
};

/** Actions whose one-word plural name asks their count. */
const COUNTED_ACTIONS = new Set(['view', 'like', 'share', 'play', 'listen', 'subscriber', 'follower', 'download']);

/** Who else may state a work's counters: its publisher (a newsletter's subscribers), its author. */
const COUNTER_OWNERS = ['publisher', 'author', 'creator'];

/** The userInteractionCount of the item's InteractionCounter for this action ('like' -> LikeAction), or nothing. */
function interactionCount(item: FactItem, action: string, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  for (const raw of item.props.get('interactionstatistic') ?? []) {
    const stat = deref(raw, byId);
    if (!isItem(stat)) continue;
    const type = (stat.props.get('interactiontype') ?? []).map((t) => deref(t, byId));
    const named = type.some((t) =>
      isItem(t)
        ? t.types.some((n) => normalizeKey(n) === `${action}action`)
        : normalizeKey(String(t)).endsWith(`${action}action`),
    );
    if (named) return stat.props.get('userinteractioncount') ?? [];
  }
  return [];
}

/**
 * The older schema.org interactionCount: "UserComments:3", "UserLikes:12", "UserPageVisits:40", or a bare number,
 * which sites wrote for views. Only the count of the thing asked.
 */
function oldInteractionCount(item: FactItem, counted: string): FactValue[] {
  const viewLike = counted === 'view' || counted === 'play' || counted === 'watch';
  for (const v of (item.props.get('interactioncount') ?? []).slice(0, 10)) {
    const text = String(v).trim();
    if (/^\d[\d,.]*$/.test(text)) {
      if (viewLike) return [text];
      continue;
    }
    const m = /^User([A-Za-z]+):\s*(\d+)$/.exec(text);
    if (!m) continue;
    const kind = singular((m[1] as string).toLowerCase());
    if (kind === counted || (viewLike && kind === 'pagevisit')) return [Number(m[2])];
  }
  return [];
}

function counts(item: FactItem, counted: string, lookup: Lookup, byId: ReadonlyMap<string, FactItem>): FactValue[] {
  const x = normalizeKey(counted);
  const one = singular(x);
  for (const key of [`numberof${x}`, `numberof${one}s`, `num${one}s`, `num${x}`, `${one}count`, `${x}count`]) {
    const v = item.props.get(key);
    if (v?.length) return v;
  }
  // interactionStatistic: [{interactionType: LikeAction, userInteractionCount: 2950}], the item's own, else its
  // publisher's or author's.
  const action = ACTION_ALIASES[one] ?? one;
  const own = interactionCount(item, action, byId);
  if (own.length) return own;
  const old = oldInteractionCount(item, one);
  if (old.length) return old;
  for (const key of COUNTER_OWNERS) {
    for (const raw of (item.props.get(key) ?? []).slice(0, 5)) {
      const owner = deref(raw, byId);
      const n = isItem(owner) ? interactionCount(owner, action, byId) : [];
      if (n.length) return n;
    }
  }
  if (counted.includes(' ')) return [];
  const values = lookup(item, counted).map((v) => deref(v, byId));
  if (!values.length || !values.every(isItem)) return [];
  if (values.length === 1) {
    const list = values[0] as FactItem;
    const stated = list.props.get('numberofitems');
    if (stated?.length) return stated;
    const elements = list.props.get('itemlistelement');
    if (elements) return [elements.length];
  }
  return [values.length];
}

/** Parts that are a thing's link: its content first (an AudioObject's file), then its page. */
const URL_PARTS = ['contenturl', 'url', 'embedurl'];
const URL_WORDS = new Set(['url', 'link', 'href', 'uri']);

function partOf(
  item: FactItem,
  tokens: readonly string[],
  lookup: Lookup,
  byId: ReadonlyMap<string, FactItem>,
): FactValue[] {
  const part = tokens[tokens.length - 1] as string;
  const thing = tokens.slice(0, -1).join(' ');
  const stated = lookup(item, thing).map((v) => deref(v, byId));
  const related = stated.filter(isItem);
  // "shop name" on a Store, "conference name" on an Event: the thing is the item itself before anything nested in it.
  if (!related.length && tokens.length === 2 && typeWords(item).has(singular(thing))) related.push(item);
  if (!related.length && tokens.length === 2) related.push(...nestedOfType(item, singular(thing), byId));
  const out: FactValue[] = [];
  if (URL_WORDS.has(part)) {
    // license_url: the stated value is itself a link.
    for (const v of stated) if (typeof v === 'string' && /^(?:https?:)?\/\//i.test(v.trim())) out.push(v);
    for (const r of related) for (const key of URL_PARTS) out.push(...(r.props.get(key) ?? []));
    return out;
  }
  for (const r of related) out.push(...lookup(r, part));
  return out;
}

/** The one property whose words end (else start) with the name's words, or nothing. */
function byWords(item: FactItem, tokens: readonly string[]): FactValue[] {
  const want = tokens.map(singular);
  const suffix: string[] = [];
  const prefix: string[] = [];
  for (const [key, name] of item.names) {
    const have = words(name).map(singular);
    if (have.length <= want.length || have.length > want.length + 3) continue;
    if (want.every((w, i) => have[have.length - want.length + i] === w)) suffix.push(key);
    else if (have.length <= want.length + 2 && want.every((w, i) => have[i] === w)) prefix.push(key);
  }
  const pick = suffix.length ? suffix : prefix;
  if (pick.length === 1) return item.props.get(pick[0] as string) ?? [];
  if (pick.length || tokens.length !== 1) return [];
  // An acronym of one property's words ('vin' <- vehicleIdentificationNumber).
  const acronym = tokens[0] as string;
  if (acronym.length < 3 || acronym.length > 4) return [];
  const hits: string[] = [];
  for (const [key, name] of item.names) {
    const w = words(name);
    if (w.length === acronym.length && w.every((x, i) => x[0] === acronym[i])) hits.push(key);
  }
  return hits.length === 1 ? (item.props.get(hits[0] as string) ?? []) : [];
}

/** Names never read by structure: every thing has them, or they mean the page. */
const NOT_STRUCTURAL = new Set(['name', 'title', 'description', 'url', 'image', 'id', 'type', 'text', 'value']);

/** What the item states for a name by structure (see the header), or nothing. */
export function structuralValues(
  item: FactItem,
  name: string,
  lookup: Lookup,
  byId: ReadonlyMap<string, FactItem>,
): FactValue[] {
  const tokens = words(name);
  const key = normalizeKey(name);
  if (!tokens.length || tokens.length > 6 || NOT_STRUCTURAL.has(key)) return [];
  if (tokens.length === 1 && typeWords(item).has(singular(key))) return item.props.get('name') ?? [];
  // A one-word plural of an action ('views', 'likes', 'shares', 'subscribers') is that action's count.
  // Only the plural: the count's own lookup of the singular ('view') must not come back here.
  const action =
    tokens.length === 1 && singular(tokens[0] as string) !== tokens[0] ? singular(tokens[0] as string) : '';
  const counted = countedOf(tokens) ?? (COUNTED_ACTIONS.has(action) ? action : null);
  if (counted) {
    const n = counts(item, counted, lookup, byId);
    if (n.length) return n;
  }
  const own = byWords(item, tokens);
  if (own.length) return own;
  if (tokens.length >= 2) {
    const parts = partOf(item, tokens, lookup, byId);
    if (parts.length) return parts;
  }
  return tokens.length === 1 ? nestedOfType(item, singular(key), byId) : [];
}
