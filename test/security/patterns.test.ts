// Adversarial path rules (issue 12, item 3): patterns and paths built to make a backtracking regex
// engine take exponential or high-polynomial time must be matched in time linear in the path, and
// what cannot be matched so is refused with a 400 naming the field, for crawls and crawl tasks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createScope } from '../../src/crawl/scope/index.js';
import { LinearRegex } from '../../src/util/linear-regex.js';
import {
  compilePatterns,
  MatchSubject,
  matchesPathPatterns,
  PATH_RULE_LIMITS,
  pathPatternProblem,
} from '../../src/crawl/scope/path-pattern.js';
import { cpuTimed } from '../helpers/cpu-time.js';
import { type CrawlSite, startCrawlSite, waitForCrawl } from '../fixtures/crawl-site.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

const SITE = 'https://example.com';
const a = (n: number) => 'a'.repeat(n);
const nestedBraces = (depth: number) => `/${'{a,'.repeat(depth)}b${'}'.repeat(depth)}*`;

/**
 * A pattern, a path of about n characters it must match, and one it must not. A `heavy` pattern may
 * also exhaust its step budget on such paths: then the answer is undecided, never wrong.
 */
interface Case {
  pattern: string;
  hit(n: number): string;
  miss(n: number): string;
  heavy?: boolean;
}

const CASES: Case[] = [
  // Exponential in V8: 72 s for a 33-character path (issue 12).
  { pattern: '/+(a*)b', hit: (n) => `/${a(n)}b`, miss: (n) => `/${a(n)}` },
  // picomatch 4.0.7 reads this one as a literal (its own ReDoS guard); the literal is matched too.
  { pattern: '/*(a|aa)*b', hit: (n) => `/*(a|aa)${a(n)}b`, miss: (n) => `/*(a|aa)${a(n)}` },
  // Plain globs with polynomial backtracking: O(n^10) here.
  { pattern: '/*a*a*a*a*a*a*a*a*a*b', hit: (n) => `/${a(n)}b`, miss: (n) => `/${a(n)}` },
  { pattern: '/**/**/**/**/**/x', hit: (n) => `/${'a/'.repeat(n / 2)}x`, miss: (n) => `/${'a/'.repeat(n / 2)}y` },
  { pattern: nestedBraces(PATH_RULE_LIMITS.maxNesting - 1), hit: (n) => `/a${a(n)}`, miss: (n) => `/c${a(n)}` },
  {
    pattern: `/**/*a${'/**/*a'.repeat(7)}/b`,
    hit: (n) => `/${'a/'.repeat(n / 2)}b`,
    miss: (n) => `/${'a/'.repeat(n / 2)}c`,
    heavy: true,
  },
  { pattern: `/${'?(a)'.repeat(30)}${'a'.repeat(30)}b`, hit: () => `/${a(30)}b`, miss: (n) => `/${a(n)}` },
  { pattern: '/!(a)*b', hit: (n) => `/b${a(n)}b`, miss: (n) => `/${a(n)}b` },
  { pattern: 'https://example.com/+(a*)b', hit: (n) => `/${a(n)}b`, miss: (n) => `/${a(n)}` },
  { pattern: '**/*(a|aa)*(a|aa)*b', hit: (n) => `/x/*(a|aa)*(a|aa)${a(n)}b`, miss: (n) => `/x/*(a|aa)*(a|aa)${a(n)}` },
];

/**
 * Runs `check` and answers the CPU time it took, in ms (wall time is stretched many times over on a loaded machine).
 */
function timed(check: () => void): number {
  return cpuTimed(check).ms;
}

describe('adversarial path rules are matched in linear time', () => {
  for (const { pattern, hit, miss, heavy } of CASES) {
    it(`${pattern.slice(0, 60)} against paths of 1,000-8,000 characters`, () => {
      const rules = compilePatterns([pattern]);
      for (const n of [1000, 2000, 4000, 8000]) {
        const elapsed = timed(() => {
          for (const [path, expected] of [
            [miss(n), false],
            [hit(n), true],
          ] as const) {
            const result = rules.matches(new MatchSubject(new URL(SITE + path)));
            // Past maxSubjectLength a path is undecided, never guessed.
            if (path.length > PATH_RULE_LIMITS.maxSubjectLength) assert.equal(result, undefined);
            else if (!(heavy && result === undefined)) assert.equal(result, expected, `${path.length} characters`);
          }
        });
        // Generous: the backtracking engine took seconds to forever on every one of these.
        assert.ok(elapsed < 200, `${n} characters took ${elapsed.toFixed(0)} ms`);
      }
    });
  }

  it('costs steps in proportion to the path (twice the path, at most ~twice the steps)', () => {
    for (const { pattern, miss, heavy } of CASES) {
      const rules = compilePatterns([pattern]);
      const steps = (n: number) => {
        // miss() paths have no trailing slash and no escapes: one string matched, so lastSteps is all of it.
        const result = rules.matches(new MatchSubject(new URL(SITE + miss(n))));
        assert.ok(result === false || (heavy && result === undefined), pattern);
        return LinearRegex.lastSteps;
      };
      const short = steps(1000);
      const long = steps(2000);
      assert.ok(long <= 2.2 * short + 100, `${pattern}: ${short} steps for 1,000 characters, ${long} for 2,000`);
    }
  });

  it('gives up on a rule list that would need more than its step budget, and the scope takes the cautious side', () => {
    // 1,000 stars before the `b`: each `a` of the path keeps up to 1,000 threads alive.
    const hostile = `/${'*a'.repeat(1000)}b`;
    const path = `/${a(4000)}`;
    const rules = compilePatterns([hostile]);
    let result: boolean | undefined;
    const elapsed = timed(() => {
      result = rules.matches(new MatchSubject(new URL(SITE + path)));
    });
    assert.equal(result, undefined);
    assert.ok(elapsed < 200, `${elapsed.toFixed(0)} ms`);
    assert.equal(matchesPathPatterns(SITE + path, [hostile]), false);
    for (const option of ['excludePaths', 'includePaths'] as const) {
      const scope = createScope({ seed: `${SITE}/`, strategy: 'same-domain', maxDepth: 5, [option]: [hostile] });
      assert.equal(scope.shouldVisit(SITE + path, 1), false, `${option}: an undecided link is not visited`);
      // A link the rules decide quickly is decided as usual.
      assert.equal(scope.shouldVisit(`${SITE}/b`, 1), option === 'excludePaths');
    }
    const saving = createScope({ seed: `${SITE}/`, strategy: 'same-domain', maxDepth: 5, scrapePaths: [hostile] });
    assert.equal(saving.shouldSave(SITE + path), false);
    assert.equal(saving.shouldVisit(SITE + path, 1), true, 'scrape_paths only decides saving');
  });

  it('long links are undecided past maxSubjectLength: not visited when a rule list is set, visited otherwise', () => {
    const long = `${SITE}/${'x'.repeat(PATH_RULE_LIMITS.maxSubjectLength)}`;
    const excluding = createScope({
      seed: `${SITE}/`,
      strategy: 'same-domain',
      maxDepth: 5,
      excludePaths: ['/private/**'],
    });
    assert.equal(excluding.shouldVisit(long, 1), false);
    assert.equal(excluding.shouldVisit(`${SITE}/${'x'.repeat(PATH_RULE_LIMITS.maxSubjectLength - 2)}`, 1), true);
    const open = createScope({ seed: `${SITE}/`, strategy: 'same-domain', maxDepth: 5 });
    assert.equal(open.shouldVisit(long, 1), true);
  });

  it('keeps rule lists written for real sites inside the budget on long paths', () => {
    const lists = [
      Array.from({ length: 100 }, (_, i) => `**/*.ext${i}`),
      Array.from({ length: 100 }, (_, i) => `/section-${i}/**`),
      Array.from({ length: 100 }, (_, i) => `**/*word${i}*/**`),
      Array.from({ length: 100 }, (_, i) => `https://*.example.com/docs/v${i}/**`),
    ];
    const paths = [`/${'abcdefghi/'.repeat(400)}`, `/${'word1'.repeat(800)}`, `/${a(4000)}`];
    for (const list of lists) {
      const rules = compilePatterns(list);
      for (const path of paths) {
        const result = rules.matches(new MatchSubject(new URL(`https://docs.example.com${path}`)));
        assert.notEqual(result, undefined, `${list[0]} on ${path.slice(0, 20)}... (${path.length}) ran out of budget`);
      }
    }
  });

  it('refuses constructs with no linear-time match, and bounds pattern size and nesting', () => {
    const refused = [
      '/!(*a)', // negation around unbounded text: a lookahead that reads without bound
      '/!(a**)',
      '/x/!(**/y)',
      '/a\\1', // picomatch passes regex backreferences through
      '/(a)\\1',
      '/(?<=a)b', // and lookbehind
      `/${'@('.repeat(PATH_RULE_LIMITS.maxNesting + 1)}a${')'.repeat(PATH_RULE_LIMITS.maxNesting + 1)}`,
      nestedBraces(PATH_RULE_LIMITS.maxNesting + 1),
      `/${'x'.repeat(PATH_RULE_LIMITS.maxPatternLength)}`,
    ];
    for (const pattern of refused) assert.notEqual(pathPatternProblem(pattern), undefined, pattern.slice(0, 50));
    const kept = [
      '/+(a*)b',
      '/!(a)',
      '/!(abc)/*',
      '/v@(1|2)/*',
      '/*(a|aa)*b',
      nestedBraces(PATH_RULE_LIMITS.maxNesting - 1),
    ];
    for (const pattern of kept) assert.equal(pathPatternProblem(pattern), undefined, pattern);
  });

  it('compiles the largest accepted patterns quickly', () => {
    const big = [
      `/${'*a'.repeat(1000)}b`,
      `/{${'a,'.repeat(1000)}b}`,
      `/${'?'.repeat(2000)}`,
      `/${'+(a)'.repeat(500)}`,
      `/${'[[:alpha:]]'.repeat(180)}`,
    ];
    for (const pattern of big) {
      const elapsed = timed(() => assert.equal(pathPatternProblem(`${pattern}/x`), undefined));
      assert.ok(elapsed < 500, `${pattern.slice(0, 20)}: ${elapsed.toFixed(0)} ms`);
    }
  });
});

describe('adversarial path rules through the API', () => {
  let t: TestApp;
  let site: CrawlSite;
  before(async () => {
    t = await startTestApp({ env: { CRAWL_RETRY_BASE_MS: '50' } });
    const hostile = `/${a(3000)}`;
    site = await startCrawlSite({
      '/': { links: [hostile, `${hostile}b`, '/ab', '/aaab', '/x'] },
      [hostile]: { links: [] },
      [`${hostile}b`]: { links: [] },
      '/ab': { links: [] },
      '/aaab': { links: [] },
      '/x': { links: [] },
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  /** POSTs and expects a 400 whose issues name `field`. */
  async function refused(path: string, body: Record<string, unknown>, field: string): Promise<void> {
    const res = await t.request('POST', path, { body });
    assert.equal(res.statusCode, 400, res.body.slice(0, 300));
    const json = res.json();
    assert.equal(json.success, false);
    assert.equal(json.data.type, 'validation_error');
    const issue = json.data.issues.find((i: { field: string }) => i.field === field);
    assert.ok(issue, `${field} in ${res.body.slice(0, 400)}`);
    assert.equal(typeof issue.message, 'string');
  }

  it('POST /v1/crawl answers 400 naming the pattern or list that cannot be matched in linear time', async () => {
    const url = `${site.url}/`;
    await refused('/v1/crawl', { url, include_paths: ['/ok/*', '/!(*a)'] }, 'include_paths.1');
    await refused('/v1/crawl', { url, exclude_paths: ['/a\\1'] }, 'exclude_paths.0');
    await refused(
      '/v1/crawl',
      { url, scrape_paths: [nestedBraces(PATH_RULE_LIMITS.maxNesting + 1)] },
      'scrape_paths.0',
    );
    await refused('/v1/crawl', { url, scrape_options: {}, exclude_paths: [`/${'x'.repeat(2100)}`] }, 'exclude_paths.0');
    const tooMuchText = Array.from({ length: 5 }, (_, i) => `/${'x'.repeat(2000)}${i}`);
    await refused('/v1/crawl', { url, exclude_paths: tooMuchText }, 'exclude_paths');
    await refused(
      '/v1/crawl',
      { url, include_paths: Array.from({ length: PATH_RULE_LIMITS.maxPatterns + 1 }, (_, i) => `/p${i}`) },
      'include_paths',
    );
  });

  it('a crawl task payload with such patterns is refused too', async () => {
    const base = { name: 'x', cron_expression: '* * * * *', task_type: 'crawl' };
    await refused(
      '/v1/scheduled-tasks',
      { ...base, task_payload: { url: `${site.url}/`, options: { include_paths: ['/!(**)'] } } },
      'task_payload.options.include_paths.0',
    );
    await refused(
      '/v1/scheduled-tasks',
      { ...base, task_payload: { url: `${site.url}/`, options: { scrape_paths: ['/a', '/(?<=a)b'] } } },
      'task_payload.options.scrape_paths.1',
    );
  });

  it('crawls a site whose links are built against its rules, and /health keeps answering', async () => {
    const res = await t.request('POST', '/v1/crawl', {
      body: {
        url: `${site.url}/`,
        scrape_paths: ['/+(a*)b'],
        exclude_paths: ['/*a*a*a*a*a*a*a*a*a*c', '/*(a|aa)*c'],
        limit: 20,
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const jobId = res.json().data.job_id as string;
    let slowest = 0;
    const probing = (async () => {
      for (let i = 0; i < 20; i++) {
        const elapsed = performance.now();
        assert.equal((await t.request('GET', '/health', { key: null })).statusCode, 200);
        slowest = Math.max(slowest, performance.now() - elapsed);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const status = await waitForCrawl((path) => t.request('GET', path), jobId);
    await probing;
    assert.equal(status.status, 'completed');
    assert.ok(slowest < 1000, `/health took ${slowest.toFixed(0)} ms`);
    // Saved: the pages matching /+(a*)b (the seed is visited, not saved); all six were visited.
    assert.equal(status.completed, 3);
    assert.equal(status.total, 6);
  });
});
