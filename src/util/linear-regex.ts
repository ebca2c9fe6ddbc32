// A linear-time matcher for the subset of JavaScript regex syntax that picomatch emits.
//
// V8's regex engine backtracks: `(?:a[^/]*?)+b`, or even `[^/]*?a[^/]*?a...b`, takes exponential
// or high-polynomial time on a path a hostile site can choose. Here the regex is compiled to a
// Thompson NFA and run as a Pike VM (every thread advanced in lock step, each program state at
// most once per input position), so a match costs O(input length x program size), whatever the
// pattern. Constructs with no linear-time implementation are refused at compile time:
// backreferences, lookbehind, and lookaheads that can read without bound.
//
// Semantics are those of `RegExp.prototype.exec` without flags (non-unicode: the input is
// UTF-16 code units, `.` excludes line terminators, `^`/`$` are input start/end), answering only
// "is there a match anywhere".

/** The source uses a construct this matcher cannot run in linear time (or does not know). */
export class UnsupportedRegexError extends Error {}

/** Limits that keep one compiled program, and so one match, bounded. */
export const REGEX_LIMITS = {
  /** Instructions of one compiled program (a bounded repeat `{n,m}` is unrolled, so it counts m times). */
  maxProgramSize: 20_000,
  /** Longest input a lookahead may read; picomatch's own need at most 3 (`.`, `..` segments). */
  maxLookaheadWidth: 32,
  /** Largest `{n,m}` bound. */
  maxRepeat: 100,
  /** Nesting of groups; the parser and emitter recurse on it. */
  maxDepth: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Syntax tree

/** A set of UTF-16 code units: sorted, disjoint, inclusive [lo, hi] pairs, possibly negated. */
interface CharSet {
  ranges: number[];
  negated: boolean;
}

type Node =
  | { kind: 'empty' }
  | { kind: 'char'; set: CharSet }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number } // max Infinity = unbounded
  | { kind: 'bol' }
  | { kind: 'eol' }
  | { kind: 'wordBoundary'; negated: boolean }
  | { kind: 'lookahead'; body: Node; negated: boolean };

const DIGIT = [0x30, 0x39];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
const LINE_TERMINATORS = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
const MAX_CODE_UNIT = 0xffff;

/** Sorted, merged copy of range pairs. */
function normalizeRanges(ranges: number[]): number[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

/** The complement of normalized ranges within the code unit space. */
function complement(ranges: number[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! > next) out.push(next, ranges[i]! - 1);
    next = ranges[i + 1]! + 1;
  }
  if (next <= MAX_CODE_UNIT) out.push(next, MAX_CODE_UNIT);
  return out;
}

function literal(code: number): Node {
  return { kind: 'char', set: { ranges: [code, code], negated: false } };
}

// ---------------------------------------------------------------------------------------------
// Parser (recursive descent over the source; ES Annex B leniency where picomatch relies on it)

class Parser {
  #pos = 0;
  #depth = 0;

  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.#disjunction();
    if (this.#pos < this.src.length) this.#fail(`unexpected '${this.src[this.#pos]}'`);
    return node;
  }

  #fail(message: string): never {
    throw new UnsupportedRegexError(`${message} at ${this.#pos} in /${this.src.slice(0, 200)}/`);
  }

  #peek(offset = 0): string | undefined {
    return this.src[this.#pos + offset];
  }

  #disjunction(): Node {
    const options = [this.#alternative()];
    while (this.#peek() === '|') {
      this.#pos++;
      options.push(this.#alternative());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  #alternative(): Node {
    const items: Node[] = [];
    for (let ch = this.#peek(); ch !== undefined && ch !== '|' && ch !== ')'; ch = this.#peek()) {
      // A group only groups (captures do not change whether there is a match): splice its sequence.
      const term = this.#term();
      if (term.kind === 'seq') items.push(...term.items);
      else if (term.kind !== 'empty') items.push(term);
    }
    if (items.length === 0) return { kind: 'empty' };
    return items.length === 1 ? items[0]! : { kind: 'seq', items };
  }

  #term(): Node {
    const ch = this.#peek()!;
    if (ch === '^') {
      this.#pos++;
      return { kind: 'bol' };
    }
    if (ch === '$') {
      this.#pos++;
      return { kind: 'eol' };
    }
    if (ch === '\\' && (this.#peek(1) === 'b' || this.#peek(1) === 'B')) {
      this.#pos += 2;
      return { kind: 'wordBoundary', negated: this.src[this.#pos - 1] === 'B' };
    }
    if (ch === '(' && this.#peek(1) === '?') {
      const kind = this.#peek(2);
      if (kind === '=' || kind === '!') {
        this.#pos += 3;
        const body = this.#group();
        // Annex B allows a quantifier on a lookahead; nothing sane needs it.
        if (this.#quantifierAhead()) this.#fail('quantified lookahead');
        return { kind: 'lookahead', body, negated: kind === '!' };
      }
      if (kind === '<' && (this.#peek(3) === '=' || this.#peek(3) === '!')) this.#fail('lookbehind');
    }
    const atom = this.#atom();
    return this.#quantified(atom);
  }

  /** The body of a group whose opening has been consumed, through its `)`. */
  #group(): Node {
    if (++this.#depth > REGEX_LIMITS.maxDepth) this.#fail('groups nested too deeply');
    const body = this.#disjunction();
    if (this.#peek() !== ')') this.#fail('unclosed group');
    this.#pos++;
    this.#depth--;
    return body;
  }

  #atom(): Node {
    const ch = this.#peek()!;
    switch (ch) {
      case '.':
        this.#pos++;
        return { kind: 'char', set: { ranges: LINE_TERMINATORS, negated: true } };
      case '[':
        return this.#class();
      case '(': {
        this.#pos++;
        if (this.#peek() === '?') {
          if (this.#peek(1) === ':') {
            this.#pos += 2;
          } else if (this.#peek(1) === '<') {
            // A named group: only capturing, which does not change whether there is a match.
            const close = this.src.indexOf('>', this.#pos);
            if (close === -1 || !/^[A-Za-z_$][\w$]*$/.test(this.src.slice(this.#pos + 2, close)))
              this.#fail('bad group name');
            this.#pos = close + 1;
          } else {
            this.#fail('unknown group');
          }
        }
        return this.#group();
      }
      case '\\':
        return this.#escape();
      case '*':
      case '+':
      case '?':
        this.#fail('nothing to repeat');
      // falls through (unreachable: #fail throws)
      case '{':
        if (this.#quantifierAhead()) this.#fail('nothing to repeat');
        this.#pos++;
        return literal(0x7b);
      default:
        this.#pos++;
        return literal(ch.charCodeAt(0));
    }
  }

  /** Is a quantifier next (a `{` counts only when it reads as `{n}`, `{n,}` or `{n,m}`, as in Annex B)? */
  #quantifierAhead(): boolean {
    const ch = this.#peek();
    if (ch === '*' || ch === '+' || ch === '?') return true;
    return ch === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.#pos, this.#pos + 24));
  }

  #quantified(atom: Node): Node {
    if (!this.#quantifierAhead()) return atom;
    let min: number;
    let max: number;
    const ch = this.#peek()!;
    if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.#pos, this.#pos + 24))!;
      this.#pos += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > REGEX_LIMITS.maxRepeat || (max !== Infinity && max > REGEX_LIMITS.maxRepeat))
        this.#fail('repeat bound too large');
      if (max < min) this.#fail('numbers out of order in quantifier');
    } else {
      this.#pos++;
      min = ch === '+' ? 1 : 0;
      max = ch === '?' ? 1 : Infinity;
    }
    // Laziness changes which match is found, not whether there is one.
    if (this.#peek() === '?') this.#pos++;
    if (this.#quantifierAhead()) this.#fail('nothing to repeat');
    return { kind: 'repeat', body: atom, min, max };
  }

  /** An escape outside a class. */
  #escape(): Node {
    this.#pos++; // the backslash
    const ch = this.#peek();
    if (ch === undefined) this.#fail('\\ at end of pattern');
    if (ch >= '1' && ch <= '9') this.#fail('backreference');
    if (ch === 'k' && this.src.includes('(?<')) this.#fail('backreference');
    const set = this.#classEscape();
    if (set !== undefined) return { kind: 'char', set };
    return literal(this.#characterEscape());
  }

  /** `\d \D \w \W \s \S` (the backslash consumed), or undefined when the escape is not one of them. */
  #classEscape(): CharSet | undefined {
    const ch = this.#peek();
    const base =
      ch === 'd' || ch === 'D' ? DIGIT : ch === 'w' || ch === 'W' ? WORD : ch === 's' || ch === 'S' ? SPACE : undefined;
    if (base === undefined) return undefined;
    this.#pos++;
    return { ranges: base, negated: ch === 'D' || ch === 'W' || ch === 'S' };
  }

  /** A character escape (the backslash consumed): its code unit. */
  #characterEscape(inClass = false): number {
    const ch = this.src[this.#pos++]!;
    switch (ch) {
      case 't':
        return 0x09;
      case 'n':
        return 0x0a;
      case 'v':
        return 0x0b;
      case 'f':
        return 0x0c;
      case 'r':
        return 0x0d;
      case 'b':
        if (inClass) return 0x08;
        break;
      case '0':
        if (!/[0-9]/.test(this.#peek() ?? '')) return 0;
        break;
      case 'x':
      case 'u': {
        const digits = ch === 'x' ? 2 : 4;
        const hex = this.src.slice(this.#pos, this.#pos + digits);
        if (new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) {
          this.#pos += digits;
          return parseInt(hex, 16);
        }
        return ch.charCodeAt(0); // Annex B: `\x` not followed by hex digits is `x`
      }
      case 'c': {
        const letter = this.#peek();
        if (letter !== undefined && /[A-Za-z]/.test(letter)) {
          this.#pos++;
          return letter.charCodeAt(0) % 32;
        }
        break;
      }
      default:
        // Identity escape (Annex B: any character but the ones above stands for itself).
        if (!/[0-9]/.test(ch)) return ch.charCodeAt(0);
    }
    this.#pos--;
    this.#fail(`unsupported escape \\${ch}`);
  }

  #class(): Node {
    this.#pos++; // [
    let negated = false;
    if (this.#peek() === '^') {
      negated = true;
      this.#pos++;
    }
    const ranges: number[] = [];
    const classSets: CharSet[] = [];
    // Reads one class atom: a code unit, or a class escape (which cannot end a range).
    const atom = (): number | CharSet => {
      const ch = this.#peek();
      if (ch === undefined) this.#fail('unclosed class');
      this.#pos++;
      if (ch !== '\\') return ch.charCodeAt(0);
      if (this.#peek() === undefined) this.#fail('\\ at end of pattern');
      const set = this.#classEscape();
      if (set !== undefined) return set;
      return this.#characterEscape(true);
    };
    while (this.#peek() !== ']') {
      const first = atom();
      if (this.#peek() === '-' && this.#peek(1) !== ']' && this.#peek(1) !== undefined) {
        this.#pos++;
        const second = atom();
        if (typeof first === 'number' && typeof second === 'number') {
          if (second < first) this.#fail('range out of order in character class');
          ranges.push(first, second);
          continue;
        }
        // Annex B: a class escape next to `-` makes the `-` literal.
        for (const item of [first, 0x2d, second]) {
          if (typeof item === 'number') ranges.push(item, item);
          else classSets.push(item);
        }
        continue;
      }
      if (typeof first === 'number') ranges.push(first, first);
      else classSets.push(first);
    }
    this.#pos++; // ]
    for (const set of classSets) ranges.push(...(set.negated ? complement(normalizeRanges(set.ranges)) : set.ranges));
    return { kind: 'char', set: { ranges: normalizeRanges(ranges), negated } };
  }
}

/** Longest input a node can consume (Infinity when unbounded). */
function maxWidth(node: Node): number {
  switch (node.kind) {
    case 'char':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + maxWidth(item), 0);
    case 'alt':
      return Math.max(...node.options.map(maxWidth));
    case 'repeat': {
      const body = maxWidth(node.body);
      return body === 0 ? 0 : node.max === Infinity ? Infinity : body * node.max;
    }
    default:
      return 0; // empty and assertions consume nothing (a lookahead reads ahead; checked at its own compile)
  }
}

/**
 * Structural identity of a node, as a short string: equal trees get equal keys. Hash-consed (a
 * node's key is built from its children's interned ids), so keying a whole tree is linear in it.
 */
class Keys {
  readonly #ids = new Map<string, number>();
  readonly #keys = new WeakMap<Node, string>();

  of(node: Node): string {
    let key = this.#keys.get(node);
    if (key === undefined) {
      key = this.#signature(node);
      let id = this.#ids.get(key);
      if (id === undefined) {
        id = this.#ids.size;
        this.#ids.set(key, id);
      }
      key = `#${id}`;
      this.#keys.set(node, key);
    }
    return key;
  }

  #signature(node: Node): string {
    switch (node.kind) {
      case 'char':
        return `c${node.set.negated ? '^' : ''}${node.set.ranges.join(',')}`;
      case 'seq':
        return `s(${node.items.map((item) => this.of(item)).join(' ')})`;
      case 'alt':
        return `a(${node.options.map((option) => this.of(option)).join(' ')})`;
      case 'repeat':
        return `r${node.min},${node.max}(${this.of(node.body)})`;
      case 'wordBoundary':
        return node.negated ? 'B' : 'b';
      case 'lookahead':
        return `l${node.negated ? '!' : '='}(${this.of(node.body)})`;
      default:
        return node.kind;
    }
  }
}

function itemsOf(node: Node): Node[] {
  return node.kind === 'seq' ? node.items : node.kind === 'empty' ? [] : [node];
}

function sequence(items: Node[]): Node {
  return items.length === 0 ? { kind: 'empty' } : items.length === 1 ? items[0]! : { kind: 'seq', items };
}

/**
 * Alternatives with their common prefixes factored out: `^/a/x|^/a/y` becomes `^/a/(x|y)`. Order
 * of alternatives does not change whether there is a match, and a list of rules that share a
 * prefix (`**\/*.pdf`, `**\/*.zip`, ...) then runs that prefix once instead of once per rule.
 */
function factorAlternatives(options: readonly Node[], keys: Keys): Node {
  const lists: Array<{ items: Node[]; at: number }> = [];
  const seen = new Set<string>();
  for (const option of options) {
    for (const flat of option.kind === 'alt' ? option.options : [option]) {
      const key = keys.of(flat);
      if (seen.has(key)) continue;
      seen.add(key);
      lists.push({ items: itemsOf(flat), at: 0 });
    }
  }
  return factorLists(lists, keys);
}

function factorLists(lists: Array<{ items: Node[]; at: number }>, keys: Keys): Node {
  const groups = new Map<string, Array<{ items: Node[]; at: number }>>();
  for (const list of lists) {
    const key = list.at < list.items.length ? keys.of(list.items[list.at]!) : '';
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [list]);
    else group.push(list);
  }
  const options: Node[] = [];
  for (const [key, group] of groups) {
    if (key === '' || group.length === 1) {
      options.push(key === '' ? { kind: 'empty' } : sequence(group[0]!.items.slice(group[0]!.at)));
      continue;
    }
    // Walk the prefix all members share (a loop, not recursion: shared prefixes can be long).
    const head: Node[] = [];
    let members = group.map((list) => ({ items: list.items, at: list.at }));
    for (;;) {
      const first = members[0]!;
      if (first.at >= first.items.length) break;
      const key = keys.of(first.items[first.at]!);
      if (!members.every((m) => m.at < m.items.length && keys.of(m.items[m.at]!) === key)) break;
      head.push(first.items[first.at]!);
      members = members.map((m) => ({ items: m.items, at: m.at + 1 }));
    }
    options.push(sequence([...head, ...itemsOf(factorLists(members, keys))]));
  }
  return options.length === 1 ? options[0]! : { kind: 'alt', options };
}

/** Instructions the Emitter writes for a node (lookahead bodies are programs of their own). */
function programSize(node: Node, lookaheads: Node[]): number {
  switch (node.kind) {
    case 'empty':
      return 0;
    case 'seq':
      return node.items.reduce((sum, item) => sum + programSize(item, lookaheads), 0);
    case 'alt':
      return node.options.reduce((sum, option) => sum + programSize(option, lookaheads), 0) + node.options.length - 1;
    case 'repeat': {
      const body = programSize(node.body, lookaheads);
      // Every copy of the body is emitted again (a lookahead inside it too: count its body once).
      const optional = node.max === Infinity ? 1 + body : (node.max - node.min) * (1 + body);
      return optional + node.min * body;
    }
    case 'lookahead':
      lookaheads.push(node.body);
      return 1;
    default:
      return 1;
  }
}

/** The checks compile() makes, on a tree: program sizes and lookahead reach, recursively. */
function checkProgram(root: Node, nesting: number): void {
  if (nesting > 8) throw new UnsupportedRegexError('lookaheads nested too deeply');
  const lookaheads: Node[] = [];
  // +1: the MATCH instruction.
  if (programSize(root, lookaheads) + 1 > REGEX_LIMITS.maxProgramSize)
    throw new UnsupportedRegexError('pattern compiles to too large a program');
  for (const body of lookaheads) {
    const width = maxWidth(body);
    if (width > REGEX_LIMITS.maxLookaheadWidth) {
      throw new UnsupportedRegexError(
        `lookahead that can read ${width === Infinity ? 'without bound' : `${width} characters`}`,
      );
    }
    checkProgram(body, nesting + 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Program

const OP_CHAR = 0;
const OP_SPLIT = 1;
const OP_JMP = 2;
const OP_MATCH = 3;
const OP_BOL = 4;
const OP_EOL = 5;
const OP_WORD_BOUNDARY = 6;
const OP_NOT_WORD_BOUNDARY = 7;
const OP_LOOKAHEAD = 8;
const OP_NEGATIVE_LOOKAHEAD = 9;

/** A predicate over code units (the ASCII part is also tabled in the program). */
class CharTest {
  readonly #ranges: number[];
  readonly #negated: boolean;

  constructor(set: CharSet) {
    this.#ranges = normalizeRanges(set.ranges);
    this.#negated = set.negated;
  }

  test(c: number): boolean {
    const r = this.#ranges;
    let inside = false;
    for (let i = 0; i < r.length; i += 2) {
      if (c < r[i]!) break;
      if (c <= r[i + 1]!) {
        inside = true;
        break;
      }
    }
    return inside !== this.#negated;
  }
}

/** Thrown through a run when its step budget is spent; caught in matchesWithin. */
const OVER_BUDGET = Symbol('over budget');

/** Work done by the current top-level match (its lookahead evaluations included). */
let steps = 0;
let budget = Infinity;
/** Identifies the current top-level match, so lookahead memos never compare input strings. */
let runId = 0;

/** Does every match start at input position 0 (so threads need not be started elsewhere)? */
function startsAnchored(node: Node): boolean {
  switch (node.kind) {
    case 'bol':
      return true;
    case 'seq':
      return node.items.length > 0 && startsAnchored(node.items[0]!);
    case 'alt':
      return node.options.every(startsAnchored);
    case 'repeat':
      return node.min >= 1 && startsAnchored(node.body);
    default:
      return false;
  }
}

/**
 * A compiled regex. A match costs O(input length x program size) steps (a step is one thread
 * advanced or one instruction followed); lookaheads, whose reach is bounded, are evaluated at
 * most once per input position and shared between patterns compiled together.
 */
export class LinearRegex {
  readonly #op: Uint8Array;
  readonly #a: Int32Array; // CHAR: test index; SPLIT/JMP: first target; lookahead: index in #lookaheads
  readonly #b: Int32Array; // SPLIT: second target
  readonly #next: Int32Array; // CHAR / assertions: the following instruction
  readonly #ascii: Uint8Array; // test index * 128 + code unit -> 1 when the test accepts it
  readonly #tests: CharTest[];
  readonly #lookaheads: LinearRegex[];
  readonly #start: number;
  readonly #anchored: boolean;
  // Thread lists of the Pike VM: sparse sets stamped with a generation, reused between calls.
  readonly #stamp: Int32Array;
  #generation = 0;
  readonly #current: Int32Array;
  readonly #following: Int32Array;
  readonly #stack: Int32Array;
  // As a lookahead body: the last position evaluated, and its result, in run #memoRun.
  #memoRun = -1;
  #memoPos = -1;
  #memoResult = false;

  private constructor(program: Emitter, anchored: boolean) {
    const size = program.op.length;
    this.#op = Uint8Array.from(program.op);
    this.#a = Int32Array.from(program.a);
    this.#b = Int32Array.from(program.b);
    this.#next = Int32Array.from(program.next);
    this.#tests = program.tests;
    this.#ascii = new Uint8Array(program.tests.length * 128);
    program.tests.forEach((test, index) => {
      for (let c = 0; c < 128; c++) this.#ascii[index * 128 + c] = test.test(c) ? 1 : 0;
    });
    this.#lookaheads = program.lookaheads;
    this.#start = program.start;
    this.#anchored = anchored;
    this.#stamp = new Int32Array(size);
    this.#current = new Int32Array(size);
    this.#following = new Int32Array(size);
    this.#stack = new Int32Array(size * 2 + 2);
  }

  /** Instructions of this program and of the lookahead programs it uses (each shared one counted once). */
  get size(): number {
    const seen = new Set<LinearRegex>();
    const visit = (program: LinearRegex): number => {
      if (seen.has(program)) return 0;
      seen.add(program);
      return program.#op.length + program.#lookaheads.reduce((sum, sub) => sum + visit(sub), 0);
    };
    return visit(this);
  }

  /**
   * Compiles one regex source, or several as alternatives of one program (one pass over the input
   * then answers "does any match"). Throws UnsupportedRegexError.
   */
  static compile(sources: string | readonly string[]): LinearRegex {
    const list = typeof sources === 'string' ? [sources] : sources;
    const trees = list.map((source) => new Parser(source).parse());
    const keys = new Keys();
    const root = trees.length === 1 ? trees[0]! : factorAlternatives(trees, keys);
    return LinearRegex.#fromTree(root, 0, new Map(), startsAnchored(root), keys);
  }

  static #fromTree(
    root: Node,
    nesting: number,
    shared: Map<string, LinearRegex>,
    anchored: boolean,
    keys: Keys,
  ): LinearRegex {
    if (nesting > 8) throw new UnsupportedRegexError('lookaheads nested too deeply');
    const emitter = new Emitter(keys, (body) => {
      const key = keys.of(body);
      const known = shared.get(key);
      if (known !== undefined) return known;
      const width = maxWidth(body);
      if (width > REGEX_LIMITS.maxLookaheadWidth) {
        throw new UnsupportedRegexError(
          `lookahead that can read ${width === Infinity ? 'without bound' : `${width} characters`}`,
        );
      }
      // A lookahead body runs anchored at the position it is asked about.
      const program = LinearRegex.#fromTree(body, nesting + 1, shared, true, keys);
      shared.set(key, program);
      return program;
    });
    emitter.finish(root);
    return new LinearRegex(emitter, anchored);
  }

  /**
   * Throws UnsupportedRegexError exactly when compile() would for one of these sources alone, without
   * building a program (request validation checks each pattern this way, then compiles the list).
   */
  static check(sources: string | readonly string[]): void {
    for (const source of typeof sources === 'string' ? [sources] : sources) checkProgram(new Parser(source).parse(), 0);
  }

  /** Is there a match anywhere in the input (RegExp.prototype.test without flags)? */
  matches(input: string): boolean {
    return this.matchesWithin(input, Infinity)!;
  }

  /**
   * Like matches(), giving up (undefined) once more than `maxSteps` steps would be needed.
   * `lastSteps` then tells how many were taken.
   */
  matchesWithin(input: string, maxSteps: number): boolean | undefined {
    steps = 0;
    budget = maxSteps;
    runId++;
    try {
      return this.#run(input, 0, this.#anchored);
    } catch (error) {
      if (error === OVER_BUDGET) return undefined;
      throw error;
    } finally {
      LinearRegex.lastSteps = steps;
    }
  }

  /** Steps taken by the last matches()/matchesWithin() call, for tests and measurements. */
  static lastSteps = 0;

  /**
   * Pike VM: all threads advance together, each instruction at most once per position. Unanchored
   * programs start a thread at every position; an anchored one (and a lookahead, asking whether its
   * body matches a prefix of input[from..]) only at `from`.
   */
  #run(input: string, from: number, anchored: boolean): boolean {
    if (this.#generation > 0x3fffffff) {
      this.#stamp.fill(0);
      this.#generation = 0;
    }
    const n = input.length;
    const ascii = this.#ascii;
    const tests = this.#tests;
    const charTest = this.#a;
    const next = this.#next;
    let current = this.#current;
    let following = this.#following;
    this.#generation++;
    let size = this.#add(current, 0, this.#start, input, from);
    for (let pos = from; pos < n; pos++) {
      if (size < 0) return true;
      if (size === 0 && anchored) return false;
      steps += size + 1;
      if (steps > budget) throw OVER_BUDGET;
      const c = input.charCodeAt(pos);
      this.#generation++;
      let followingSize = 0;
      for (let i = 0; i < size; i++) {
        const pc = current[i]!;
        const test = charTest[pc]!;
        if (c < 128 ? ascii[(test << 7) | c] === 1 : tests[test]!.test(c)) {
          followingSize = this.#add(following, followingSize, next[pc]!, input, pos + 1);
          if (followingSize < 0) return true;
        }
      }
      const swap = current;
      current = following;
      following = swap;
      // Same generation as the list just filled, so a state already in it is not added twice.
      size = anchored ? followingSize : this.#add(current, followingSize, this.#start, input, pos + 1);
    }
    return size < 0;
  }

  /**
   * Adds the epsilon closure of `pc` at `pos` to a thread list holding `size` threads (stamped with
   * the current generation): only CHAR instructions are kept. Returns the new size, or -1 when the
   * closure reaches MATCH.
   */
  #add(list: Int32Array, size: number, pc: number, input: string, pos: number): number {
    const stack = this.#stack;
    const stamp = this.#stamp;
    const generation = this.#generation;
    const op = this.#op;
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const at = stack[--top]!;
      if (stamp[at] === generation) continue;
      stamp[at] = generation;
      steps++;
      switch (op[at]) {
        case OP_CHAR:
          list[size++] = at;
          break;
        case OP_MATCH:
          return -1;
        case OP_JMP:
          stack[top++] = this.#a[at]!;
          break;
        case OP_SPLIT:
          stack[top++] = this.#b[at]!;
          stack[top++] = this.#a[at]!;
          break;
        default:
          if (this.#assertion(at, input, pos)) stack[top++] = this.#next[at]!;
      }
    }
    return size;
  }

  #assertion(at: number, input: string, pos: number): boolean {
    switch (this.#op[at]) {
      case OP_BOL:
        return pos === 0;
      case OP_EOL:
        return pos === input.length;
      case OP_WORD_BOUNDARY:
      case OP_NOT_WORD_BOUNDARY: {
        const boundary = isWordChar(input, pos - 1) !== isWordChar(input, pos);
        return boundary === (this.#op[at] === OP_WORD_BOUNDARY);
      }
      default:
        return this.#lookaheads[this.#a[at]!]!.#lookaheadAt(input, pos) === (this.#op[at] === OP_LOOKAHEAD);
    }
  }

  /**
   * Does this (lookahead body) program match a prefix of input[pos..]? Its own thread lists are
   * used, so the caller's run is undisturbed; its reach is bounded, so this costs O(width x size),
   * once per position and top-level run.
   */
  #lookaheadAt(input: string, pos: number): boolean {
    if (this.#memoRun !== runId || this.#memoPos !== pos) {
      this.#memoResult = this.#run(input, pos, true);
      this.#memoRun = runId;
      this.#memoPos = pos;
    }
    return this.#memoResult;
  }
}

function isWordChar(input: string, pos: number): boolean {
  if (pos < 0 || pos >= input.length) return false;
  const c = input.charCodeAt(pos);
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x61 && c <= 0x7a);
}

/** Thompson construction into flat arrays. */
class Emitter {
  readonly op: number[] = [];
  readonly a: number[] = [];
  readonly b: number[] = [];
  readonly next: number[] = [];
  readonly tests: CharTest[] = [];
  readonly lookaheads: LinearRegex[] = [];
  start = 0;
  #depth = 0;
  /** Index of each distinct character test: `[^/]` or `a` appear many times in a pattern. */
  readonly #testIndex = new Map<string, number>();

  constructor(
    private readonly keys: Keys,
    private readonly compileLookahead: (body: Node) => LinearRegex,
  ) {}

  finish(root: Node): void {
    const match = this.#emit(OP_MATCH);
    this.start = this.#node(root, match);
  }

  #emit(op: number, a = -1, b = -1, next = -1): number {
    if (this.op.length >= REGEX_LIMITS.maxProgramSize)
      throw new UnsupportedRegexError('pattern compiles to too large a program');
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    this.next.push(next);
    return this.op.length - 1;
  }

  /** Emits `node` so that it continues at `out`; returns its entry instruction. */
  #node(node: Node, out: number): number {
    if (++this.#depth > REGEX_LIMITS.maxDepth * 4) throw new UnsupportedRegexError('pattern nested too deeply');
    try {
      return this.#emitNode(node, out);
    } finally {
      this.#depth--;
    }
  }

  #emitNode(node: Node, out: number): number {
    switch (node.kind) {
      case 'empty':
        return out;
      case 'char': {
        const key = this.keys.of(node);
        let index = this.#testIndex.get(key);
        if (index === undefined) {
          index = this.tests.push(new CharTest(node.set)) - 1;
          this.#testIndex.set(key, index);
        }
        return this.#emit(OP_CHAR, index, -1, out);
      }
      case 'seq': {
        let entry = out;
        for (let i = node.items.length - 1; i >= 0; i--) entry = this.#node(node.items[i]!, entry);
        return entry;
      }
      case 'alt': {
        let entry = this.#node(node.options[node.options.length - 1]!, out);
        for (let i = node.options.length - 2; i >= 0; i--)
          entry = this.#emit(OP_SPLIT, this.#node(node.options[i]!, out), entry);
        return entry;
      }
      case 'repeat': {
        let entry: number;
        if (node.max === Infinity) {
          // A loop: SPLIT(body, which comes back here; out).
          entry = this.#emit(OP_SPLIT, -1, out);
          this.a[entry] = this.#node(node.body, entry);
        } else {
          // max - min optional copies, nested: x{0,k} = (x(x(...)?)?)?
          entry = out;
          for (let i = node.min; i < node.max; i++) entry = this.#emit(OP_SPLIT, this.#node(node.body, entry), out);
        }
        for (let i = 0; i < node.min; i++) entry = this.#node(node.body, entry);
        return entry;
      }
      case 'bol':
        return this.#emit(OP_BOL, -1, -1, out);
      case 'eol':
        return this.#emit(OP_EOL, -1, -1, out);
      case 'wordBoundary':
        return this.#emit(node.negated ? OP_NOT_WORD_BOUNDARY : OP_WORD_BOUNDARY, -1, -1, out);
      case 'lookahead':
        this.lookaheads.push(this.compileLookahead(node.body));
        return this.#emit(node.negated ? OP_NEGATIVE_LOOKAHEAD : OP_LOOKAHEAD, this.lookaheads.length - 1, -1, out);
    }
  }
}
