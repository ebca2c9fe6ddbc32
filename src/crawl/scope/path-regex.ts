// Path rules written as regular expressions (Firecrawl's includePaths / excludePaths, docs/firecrawl.md): each is
// searched for in the URL's path (or, with `fullUrl`, the whole URL), as `new RegExp(rule).test(path)` would, but run
// by LinearRegex so a hostile rule or path costs time linear in the path.
import { LinearRegex, UnsupportedRegexError } from '../../util/linear-regex.js';
import { MatchSubject, PATH_RULE_LIMITS, type PatternSet } from './path-pattern.js';

/** Why a regex rule cannot be used (its syntax, or a construct without a linear-time run), or undefined. */
export function regexRuleProblem(rule: string): string | undefined {
  if (rule.length > PATH_RULE_LIMITS.maxPatternLength)
    return `A rule may have at most ${PATH_RULE_LIMITS.maxPatternLength} characters`;
  try {
    // Only the syntax check: the rule itself never runs on V8's backtracking engine.
    void new RegExp(rule);
  } catch (error) {
    return `Not a valid regular expression: ${(error as Error).message}`;
  }
  try {
    LinearRegex.check(rule);
  } catch (error) {
    if (error instanceof UnsupportedRegexError)
      return `This server matches rules in linear time and cannot run this one: ${error.message}`;
    throw error;
  }
  return undefined;
}

/** Why a list of valid rules cannot be used together (count, total length, program size), or undefined. */
export function regexListProblem(rules: readonly string[]): string | undefined {
  if (rules.length > PATH_RULE_LIMITS.maxPatterns) return `At most ${PATH_RULE_LIMITS.maxPatterns} rules`;
  const total = rules.reduce((sum, rule) => sum + rule.length, 0);
  if (total > PATH_RULE_LIMITS.maxListLength)
    return `The rules of one list may have at most ${PATH_RULE_LIMITS.maxListLength} characters together (these have ${total})`;
  if (!rules.every((rule) => regexRuleProblem(rule) === undefined)) return undefined;
  try {
    const program = LinearRegex.compile(rules);
    if (program.size > PATH_RULE_LIMITS.maxProgramSize) return 'The rules of this list are too complex together';
  } catch (error) {
    if (error instanceof UnsupportedRegexError)
      return `The rules of this list are too complex together: ${error.message}`;
    throw error;
  }
  return undefined;
}

/** Compiles a list of regex rules into one program. Throws TypeError on a rule validation should have refused. */
export function compileRegexRules(rules: readonly string[], fullUrl: boolean): PatternSet {
  if (rules.length === 0) return { size: 0, matches: () => false };
  for (const rule of rules) {
    if (regexRuleProblem(rule) !== undefined) throw new TypeError(`invalid path regex: ${JSON.stringify(rule)}`);
  }
  const program = LinearRegex.compile(rules);
  return {
    size: rules.length,
    matches(subject: MatchSubject): boolean | undefined {
      const value = fullUrl ? subject.href() : subject.pathname();
      if (value.length > PATH_RULE_LIMITS.maxSubjectLength) return undefined;
      return program.matchesWithin(
        value,
        PATH_RULE_LIMITS.baseSteps + PATH_RULE_LIMITS.stepsPerCharacter * value.length,
      );
    },
  };
}
