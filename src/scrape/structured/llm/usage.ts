// Token counts summed over the model calls of one page.
import type { TokenUsage } from '../types.js';

export function noUsage(): TokenUsage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.trunc(value) : 0;
}

/** A response's `usage` as reported; a server that omits it (or part of it) counts 0. */
export function usageOf(reported: unknown): TokenUsage {
  if (reported === null || typeof reported !== 'object') return noUsage();
  const fields = reported as Record<string, unknown>;
  const prompt = count(fields.prompt_tokens);
  const completion = count(fields.completion_tokens);
  // Some servers leave out the total; the sum is what it means.
  const total = count(fields.total_tokens) || prompt + completion;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** Adds `more` into `sum` in place. */
export function addUsage(sum: TokenUsage, more: TokenUsage): void {
  sum.prompt_tokens += more.prompt_tokens;
  sum.completion_tokens += more.completion_tokens;
  sum.total_tokens += more.total_tokens;
}
