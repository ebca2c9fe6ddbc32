// htmlparser2's tokenizer with native string searches where it scans characters one by one (text, quoted attribute
// values, script/style bodies).
import { Tokenizer } from 'htmlparser2';

/*
 * With entity decoding on, htmlparser2 12 looks at every character of text and of quoted attribute
 * values in a JavaScript switch, and finds the end of <script>/<style> bodies with a charCodeAt loop.
 * On our pages that is most of the parse (inline scripts alone are half of a typical page). These
 * overrides jump to the next character that can matter with indexOf or a character-class regex,
 * which V8 runs natively; the states reached and the callbacks made are the same as the stock
 * tokenizer's (test/scrape/extract/tokenizer.test.ts parses pages both ways and compares the trees).
 *
 * The methods overridden are private in htmlparser2's type declarations, so they are reached through
 * the interface below. `fastTokenizer()` checks that the prototype still has them (a different
 * htmlparser2 version) and otherwise gives the stock tokenizer.
 */
interface TokenizerInternals {
  buffer: string;
  index: number;
  offset: number;
  fastForwardTo(c: number): boolean;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
}

const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

const TEXT_STOP = /[<&]/g;
const DOUBLE_QUOTED_STOP = /["&]/g;
const SINGLE_QUOTED_STOP = /['&]/g;

/**
 * Moves `t.index` to just before the next match of `re` after the current character (the parse loop then steps onto
 * it).
 */
function skipTo(t: TokenizerInternals, re: RegExp): void {
  re.lastIndex = t.index + 1 - t.offset;
  const m = re.exec(t.buffer);
  t.index = (m ? m.index : t.buffer.length) + t.offset - 1;
}

type TokenizerClass = typeof Tokenizer;

function makeFastTokenizer(): TokenizerClass | null {
  const proto = Tokenizer.prototype as unknown as Partial<TokenizerInternals>;
  if (
    typeof proto.fastForwardTo !== 'function' ||
    typeof proto.stateText !== 'function' ||
    typeof proto.handleInAttributeValue !== 'function'
  ) {
    return null;
  }
  const stockText = proto.stateText;
  const stockAttributeValue = proto.handleInAttributeValue;

  class FastTokenizer extends Tokenizer {}
  const fast = FastTokenizer.prototype as unknown as TokenizerInternals;

  fast.fastForwardTo = function fastForwardTo(this: TokenizerInternals, c: number): boolean {
    const at = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
    if (at < 0) {
      this.index = this.buffer.length + this.offset - 1;
      return false;
    }
    this.index = at + this.offset;
    return true;
  };

  // In text only "<" and "&" do anything; the stock state ignores every other character.
  fast.stateText = function stateText(this: TokenizerInternals, c: number): void {
    if (c === LT || c === AMP) stockText.call(this, c);
    else skipTo(this, TEXT_STOP);
  };

  // In a quoted value only the closing quote and "&" do anything.
  fast.handleInAttributeValue = function handleInAttributeValue(
    this: TokenizerInternals,
    c: number,
    quote: number,
  ): void {
    if (c === quote || c === AMP) stockAttributeValue.call(this, c, quote);
    else if (quote === DOUBLE_QUOTE) skipTo(this, DOUBLE_QUOTED_STOP);
    else if (quote === SINGLE_QUOTE) skipTo(this, SINGLE_QUOTED_STOP);
    else stockAttributeValue.call(this, c, quote);
  };

  return FastTokenizer;
}

const FAST = makeFastTokenizer();

/** The tokenizer class to give htmlparser2's Parser: the fast one, or the stock one if this htmlparser2 differs. */
export function fastTokenizer(): TokenizerClass {
  return FAST ?? Tokenizer;
}
