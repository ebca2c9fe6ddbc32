// Public API of the crawl scope rules: URL normalization, path rules, strategies, depth and robots.txt.
export { normalizeUrl } from './normalize-url.js';
export { isValidPathPattern, PATH_RULE_LIMITS, pathListProblem, pathPatternProblem } from './path-pattern.js';
export { createStrategyFilter, siteKey, type Strategy } from './strategy.js';
export { createScope, type Scope, type ScopeOptions } from './scope.js';
export { isLikelyNonHtml } from './non-html.js';
export { allowAllRobots, disallowAllRobots, parseRobots, robotsUrlFor, type RobotsRules } from './robots.js';
