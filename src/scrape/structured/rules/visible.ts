// Facts of the visible main content: tables (a header row makes records, a header column or a two-column table
// makes label/value pairs), definition lists (dt -> its dd's), and label/value pairs written inline:
// `<strong>Label:</strong> value`, `<span class="label">Label</span><span>value</span>`, and list items or
// paragraphs reading "Label: value". One iterative walk; tables are read row by row up to the caps and not
// walked again.
import { elementChildren, getAttr, isTag, isText, type ChildNode, type Element } from '../../extract/dom.js';
import type { LabelledValue, RecordTable } from './facts.js';
import { normalizeKey } from './keys.js';
import { RULE_LIMITS } from './limits.js';
import { boundedText, cleanText } from './text.js';

export interface VisibleFacts {
  pairs: LabelledValue[];
  tables: RecordTable[];
}

const LABEL_TAGS = new Set(['strong', 'b', 'dt', 'th', 'label']);
const LABEL_CLASSES = /(?:^|[\s_-])(?:label|key|name|term|title|spec-name|attr(?:ibute)?)(?:$|[\s_-])/i;
/** Elements that end an inline value: the next line starts. */
const VALUE_STOPS = new Set(['br', 'p', 'div', 'li', 'ul', 'ol', 'table', 'dl', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const SECTIONS = new Set(['thead', 'tbody', 'tfoot']);
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
const LEADING_LABEL_TAGS = new Set(['span', 'strong', 'b', 'em']);

class VisibleReader {
  readonly pairs: LabelledValue[] = [];
  readonly tables: RecordTable[] = [];
  private readonly seen = new Set<string>();
  private tableCount = 0;

  read(root: Element): VisibleFacts {
    const stack: ChildNode[] = [root];
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (!isTag(n)) continue;
      if (n.name === 'table') {
        if (++this.tableCount <= RULE_LIMITS.maxTables) this.readTable(n);
        continue;
      }
      if (n.name === 'dl') this.readDefinitionList(n);
      else if (n.name === 'li' || n.name === 'p') {
        this.readLine(n);
        if (n.name === 'li') this.readLeadingLabel(n);
      } else if (HEADINGS.has(n.name)) this.readHeadedList(n);
      else if (this.isInlineLabel(n)) this.readInlineLabel(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as ChildNode);
    }
    return { pairs: this.pairs, tables: this.tables };
  }

  private add(label: string, values: string[]): void {
    const clean = cleanLabel(label);
    const key = normalizeKey(clean);
    const kept = values.map(cleanText).filter((v) => v !== '');
    if (!key || !kept.length || clean.length > RULE_LIMITS.maxLabelChars) return;
    if (this.pairs.length >= RULE_LIMITS.maxPairs) return;
    // The same fact often appears twice (a <strong> label inside a "Label: value" list item).
    const id = `${key}\u0000${kept.join('\u0000')}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.pairs.push({ label: clean, key, values: kept });
  }

  private readTable(table: Element): void {
    const rows: Element[][] = [];
    const headRows = new Set<number>();
    const addRows = (parent: Element, inHead: boolean): void => {
      for (const c of parent.children) {
        if (rows.length >= RULE_LIMITS.maxRowsPerTable) return;
        if (!isTag(c)) continue;
        if (c.name === 'tr') {
          if (inHead) headRows.add(rows.length);
          rows.push(cellsOf(c));
        } else if (SECTIONS.has(c.name)) addRows(c, c.name === 'thead');
      }
    };
    addRows(table, false);
    if (!rows.length) return;
    const first = rows[0] as Element[];
    const headerRow = headRows.has(0) || (first.length >= 2 && first.every((c) => c.name === 'th'));
    const body = rows.slice(headerRow ? 1 : 0).filter((r) => r.length > 0);
    const firstColumnHeads = body.length > 0 && body.filter((r) => r[0]?.name === 'th').length * 2 > body.length;

    if (headerRow && first.length >= 2 && !firstColumnHeads) {
      const headers = first.map((c) => boundedText(c));
      const textRows = body.map((r) => r.map((c) => boundedText(c)));
      if (textRows.length) this.tables.push({ headers, keys: headers.map(normalizeKey), rows: textRows });
      // A single data row is one record: its cells are the values of the headers.
      if (textRows.length === 1) headers.forEach((h, i) => this.add(h, [textRows[0]?.[i] ?? '']));
      // A two-column table with a header row ("Feature | Value") is still a list of label/value rows.
      if (first.length === 2 && textRows.length > 1) for (const r of textRows) this.add(r[0] ?? '', r.slice(1));
      return;
    }
    // Header column, or a plain two-column table: label, then value(s).
    for (const r of body) {
      if (r.length < 2 || (!firstColumnHeads && r.length !== 2)) continue;
      this.add(
        boundedText(r[0] as Element),
        r.slice(1).map((c) => boundedText(c)),
      );
    }
  }

  private readDefinitionList(dl: Element): void {
    // dt/dd are children of the dl, or of <div>s grouping them (allowed by HTML).
    const entries: Element[] = [];
    for (const c of elementChildren(dl)) {
      if (c.name === 'div') entries.push(...elementChildren(c));
      else entries.push(c);
    }
    let label: string | null = null;
    let values: string[] = [];
    const flush = (): void => {
      if (label !== null) this.add(label, values);
      values = [];
    };
    for (const e of entries.slice(0, RULE_LIMITS.maxRowsPerTable * 2)) {
      if (e.name === 'dt') {
        // Several dt's before one dd name the same value; the first is kept.
        if (values.length || label === null) {
          flush();
          label = boundedText(e, 200);
        }
      } else if (e.name === 'dd' && label !== null) values.push(boundedText(e));
    }
    flush();
  }

  /** "Label: value" lines of a list item or paragraph (lines end at <br>). */
  private readLine(el: Element): void {
    let line: string[] = [];
    let length = 0;
    const flush = (): void => {
      this.readLabelledLine(cleanText(line.join('')));
      line = [];
      length = 0;
    };
    for (const c of el.children) {
      if (isTag(c) && c.name === 'br') flush();
      else if (length < 600) {
        const t = isText(c) ? c.data : isTag(c) ? ` ${boundedText(c, 600)} ` : '';
        line.push(t);
        length += t.length;
      }
    }
    flush();
  }

  private readLabelledLine(text: string): void {
    const colon = text.indexOf(':');
    if (colon < 1 || colon > RULE_LIMITS.maxLabelChars) return;
    const label = text.slice(0, colon);
    const value = text.slice(colon + 1).trim();
    // "https://..." and times ("10:30") are no labels; a label is a few words.
    if (value.startsWith('//') || (/\d$/.test(label) && /^\d/.test(value))) return;
    if (label.split(' ').length > 6) return;
    this.add(label, [value]);
  }

  /** `<li><span>Prep</span> 15 min</li>`: a short leading element without a colon labels the rest of the item. */
  private readLeadingLabel(li: Element): void {
    let first: Element | null = null;
    const rest: string[] = [];
    for (const c of li.children) {
      if (first === null) {
        if (isText(c) && c.data.trim() === '') continue;
        if (!isTag(c) || !LEADING_LABEL_TAGS.has(c.name)) return;
        first = c;
      } else if (isText(c)) rest.push(c.data);
      else if (isTag(c)) rest.push(` ${boundedText(c, 600)} `);
      if (rest.length > 20) break;
    }
    if (!first) return;
    const label = boundedText(first, 200);
    if (label.endsWith(':') || label.split(' ').length > 4 || /\d/.test(label)) return;
    this.add(label, [rest.join('')]);
  }

  /** A heading followed by a list ("Ingredients" + <ul>): the list items are the heading's values. */
  private readHeadedList(h: Element): void {
    let next = h.next;
    while (next && isText(next) && next.data.trim() === '') next = next.next;
    if (!next || !isTag(next) || (next.name !== 'ul' && next.name !== 'ol')) return;
    const items = elementChildren(next)
      .filter((c) => c.name === 'li')
      .slice(0, RULE_LIMITS.maxRowsPerTable)
      .map((li) => boundedText(li));
    this.add(boundedText(h, 200), items);
  }

  private isInlineLabel(el: Element): boolean {
    if (LABEL_TAGS.has(el.name) && el.name !== 'dt' && el.name !== 'th') return true;
    const cls = getAttr(el, 'class');
    return cls !== null && el.name === 'span' && LABEL_CLASSES.test(cls);
  }

  /** `<strong>Label:</strong> value` (up to the line's end), or a labelled span followed by its value element. */
  private readInlineLabel(el: Element): void {
    const label = boundedText(el, 200);
    if (!label || label.length > RULE_LIMITS.maxLabelChars + 1) return;
    const byClass = el.name === 'span' || el.name === 'label';
    if (!label.endsWith(':') && !byClass) return;
    const parts: string[] = [];
    let length = 0;
    for (let n = el.next; n && length < 600; n = n.next) {
      if (isText(n)) {
        parts.push(n.data);
        length += n.data.length;
      } else if (isTag(n)) {
        if (VALUE_STOPS.has(n.name) || this.isInlineLabel(n)) break;
        const t = boundedText(n, 600);
        parts.push(` ${t} `);
        length += t.length;
        // A labelled span's value is the one element after it.
        if (byClass) break;
      }
    }
    this.add(label, [parts.join('')]);
  }
}

function cellsOf(tr: Element): Element[] {
  const cells: Element[] = [];
  for (const c of tr.children) {
    if (cells.length >= RULE_LIMITS.maxCellsPerRow) break;
    if (isTag(c) && (c.name === 'td' || c.name === 'th')) cells.push(c);
  }
  return cells;
}

/** "Weight:" -> "Weight"; surrounding punctuation goes. */
function cleanLabel(label: string): string {
  let t = cleanText(label);
  while (t.endsWith(':') || t.endsWith('-') || t.endsWith('\u2013')) t = t.slice(0, -1).trimEnd();
  return t;
}

export function readVisible(root: Element): VisibleFacts {
  return new VisibleReader().read(root);
}
