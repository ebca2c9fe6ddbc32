// A search query as the index reads it: words and "phrases" that must all occur, -words that must not, and site:
// filters. Parsed here, once, into plain tokens, so that no user text ever reaches FTS5's or tsquery's own syntax.

/** A word or a phrase: its tokens must occur next to each other, in order. */
export type Term = readonly string[];

export interface QueryTerms {
  /** Every one must occur (in the title or the text). */
  required: Term[];
  /** None may occur. */
  excluded: Term[];
  /** Hosts (lower case, without a leading `www.`): a page must be on one of them or on a subdomain of one. */
  sites: string[];
}

/** Terms read from one query at most; the rest is ignored (a search engine's query is a few words). */
export const MAX_TERMS = 32;
/** Tokens of one phrase at most. */
const MAX_PHRASE_TOKENS = 16;

// Letters, digits and combining marks, as SQLite's unicode61 tokenizer splits text; a bounded quantifier-free class,
// matched in linear time.
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;
const HOST = /^[a-z0-9.-]{1,253}$/;

/** The tokens of a piece of text, lower case, in order. */
export function tokensOf(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).slice(0, MAX_PHRASE_TOKENS);
}

/**
 * Splits a query into its parts: `"…"` is a phrase, `-word` or `-"…"` excludes, `site:host` filters, and any other
 * run of non-space characters is a word (or, when punctuation splits it as `node.js`, the phrase of its tokens).
 */
export function parseQuery(query: string): QueryTerms {
  const terms: QueryTerms = { required: [], excluded: [], sites: [] };
  // A quoted phrase (closed or running to the end), or a run of non-space characters; each optionally negated.
  const parts = query.matchAll(/(-?)"([^"]*)"?|(\S+)/g);
  let count = 0;
  for (const part of parts) {
    if (count >= MAX_TERMS) break;
    const [, minus, quoted, bare] = part;
    if (bare !== undefined) {
      const site = /^site:(.+)$/i.exec(bare);
      if (site?.[1] !== undefined) {
        const host = site[1]
          .toLowerCase()
          .replace(/^www\./, '')
          .replace(/\/.*$/, '');
        if (HOST.test(host)) terms.sites.push(host);
        count++;
        continue;
      }
      const negated = bare.startsWith('-') && bare.length > 1;
      const tokens = tokensOf(negated ? bare.slice(1) : bare);
      if (tokens.length === 0) continue;
      (negated ? terms.excluded : terms.required).push(tokens);
      count++;
      continue;
    }
    const tokens = tokensOf(quoted ?? '');
    if (tokens.length === 0) continue;
    (minus === '-' ? terms.excluded : terms.required).push(tokens);
    count++;
  }
  return terms;
}

/** The FTS5 MATCH expression of the terms: each term a quoted phrase of plain tokens (nothing to escape). */
export function fts5Expression(terms: QueryTerms): string {
  const phrase = (term: Term) => `"${term.join(' ')}"`;
  const required = terms.required.map(phrase).join(' AND ');
  if (terms.excluded.length === 0) return required;
  return `(${required}) NOT (${terms.excluded.map(phrase).join(' OR ')})`;
}
