// The linear-time matcher behind path rules must agree with V8's regex engine: checked on random
// picomatch globs and random regexes of the supported syntax, over short inputs (where V8 is fast).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import picomatch from 'picomatch';
import { LinearRegex, UnsupportedRegexError } from '../../src/util/linear-regex.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

function agree(source: string, inputs: string[]): void {
  let linear: LinearRegex;
  try {
    linear = LinearRegex.compile(source);
  } catch (error) {
    // Refusing is allowed (validation then answers 400); answering differently is not.
    if (error instanceof UnsupportedRegexError) return;
    throw error;
  }
  const native = new RegExp(source);
  for (const input of inputs)
    assert.equal(linear.matches(input), native.test(input), `/${source}/ on ${JSON.stringify(input)}`);
}

describe('LinearRegex agrees with V8', () => {
  it('on picomatch globs (as path rules compile them)', () => {
    const rnd = random(12345);
    const pieces = [
      '/',
      'a',
      'b',
      '.',
      '*',
      '**',
      '?',
      '/**/',
      '{a,b}',
      '{a,{b,}}',
      '[ab]',
      '[!a]',
      '[^b]',
      '@(a|b)',
      '+(a*)',
      '*(a|ab)',
      '?(b)',
      '!(a)',
      '[[:alpha:]]',
      '\\*',
      '(a|b)',
      '{1..3}',
      '%20',
      'é',
    ];
    const chars = ['/', 'a', 'b', '.', 'x', '1', '*', 'é', ' ', '%'];
    for (let g = 0; g < 1500; g++) {
      let glob = rnd(3) === 0 ? '' : '/';
      for (let i = 0, k = 1 + rnd(6); i < k; i++) glob += pieces[rnd(pieces.length)];
      const inputs = Array.from({ length: 30 }, () => {
        let path = rnd(4) === 0 ? '' : '/';
        for (let i = 0, k = rnd(9); i < k; i++) path += chars[rnd(chars.length)];
        return path;
      });
      agree(picomatch.makeRe(glob, { dot: true, nonegate: true, windows: false }).source, inputs);
    }
  });

  it('on regexes of the supported syntax (escapes, classes, repeats, boundaries, lookaheads, groups)', () => {
    const rnd = random(999);
    const atoms = [
      'a',
      'b',
      '\\d',
      '\\w',
      '\\s',
      '\\D',
      '\\W',
      '\\S',
      '.',
      '[ab]',
      '[^a]',
      '[\\w-]',
      '[a-c\\d]',
      '[-a]',
      '[\\b]',
      '\\x61',
      '\\u0062',
      '\\/',
      '\\-',
      '[\\]a]',
      '\\t',
      '{',
      '}',
      ']',
      '\\0',
    ];
    const quantifiers = ['', '', '', '*', '+', '?', '*?', '{2}', '{1,3}', '{0,}', '{2,}?', '{,3}'];
    const generate = (depth: number): string => {
      let source = '';
      for (let i = 0, k = 1 + rnd(4); i < k; i++) {
        const r = rnd(12);
        if (r === 0 && depth < 3) source += `(${generate(depth + 1)})${quantifiers[rnd(quantifiers.length)]}`;
        else if (r === 1 && depth < 3)
          source += `(?:${generate(depth + 1)}|${generate(depth + 1)})${quantifiers[rnd(quantifiers.length)]}`;
        else if (r === 2 && depth < 3)
          source += `${rnd(2) ? '(?=' : '(?!'}${generate(depth + 1).replace(/[*+]|\{\d*,\}/g, '')})`;
        else if (r === 3) source += ['^', '$', '\\b', '\\B'][rnd(4)];
        else source += atoms[rnd(atoms.length)]! + quantifiers[rnd(quantifiers.length)];
      }
      return source;
    };
    const chars = ['a', 'b', '1', ' ', '-', '/', '.', '\n', 'é', ']', '{', '\t', '\x08'];
    for (let g = 0; g < 4000; g++) {
      const source = generate(0);
      try {
        new RegExp(source);
      } catch {
        continue; // not a regex at all
      }
      const inputs = Array.from({ length: 25 }, () =>
        Array.from({ length: rnd(8) }, () => chars[rnd(chars.length)]).join(''),
      );
      agree(source, inputs);
    }
  });

  it('refuses what it cannot run in linear time', () => {
    for (const source of ['(a)\\1', '(?<n>a)\\k<n>', '(?<=a)b', '(?<!a)b', '(?=a*)b', '(?!.+$)x', 'a{101}', '(?=a)*']) {
      assert.throws(() => LinearRegex.compile(source), UnsupportedRegexError, source);
    }
  });
});
