// The model path of structured extraction: a page's `json` and `summary` from any OpenAI-compatible Chat
// Completions endpoint (docs/structured-llm.md). One extractor per process: it holds the bound on requests
// in flight and what it learnt about the endpoint's structured-output support.
import type { JsonRequest, TokenUsage } from '../types.js';
import { cutToBudget } from './budget.js';
import { extractJson, type Warner } from './extract-json.js';
import { ModelCaller, newOpenAiClient } from './model-call.js';
import { PageCalls } from './page-calls.js';
import { FormatLadder } from './response-format.js';
import { Semaphore } from './semaphore.js';
import { LLM_DEFAULTS, type LlmSettings } from './settings.js';
import { summarize } from './summarize.js';

export { cutToBudget } from './budget.js';
export { LlmError } from './errors.js';
export { LLM_DEFAULTS, type LlmSettings } from './settings.js';

export interface ModelInput {
  content: string;
  contentKind: 'markdown' | 'html';
  url: string;
  language?: string;
}

export interface LlmExtractor {
  extractJson(
    input: ModelInput & { request: JsonRequest },
    signal?: AbortSignal,
  ): Promise<{ json: Record<string, unknown>; usage: TokenUsage; truncated: boolean }>;
  summarize(
    input: ModelInput,
    signal?: AbortSignal,
  ): Promise<{ summary: string; usage: TokenUsage; truncated: boolean }>;
  /** Calls waiting for a slot and in flight (for tests/metrics). */
  load(): { waiting: number; running: number };
}

export function createLlmExtractor(settings: LlmSettings, logger?: Warner): LlmExtractor {
  const slots = new Semaphore(settings.concurrency);
  const caller = new ModelCaller(newOpenAiClient(settings), settings, slots);
  const ladder = new FormatLadder();
  const summaryMaxChars = settings.summaryMaxChars ?? LLM_DEFAULTS.summaryMaxChars;

  const pageOf = (input: ModelInput) => {
    const { content, truncated } = cutToBudget(input.content, settings.maxInputChars);
    return { content, contentKind: input.contentKind, url: input.url, truncated };
  };

  return {
    async extractJson(input, signal) {
      const page = pageOf(input);
      const { json, usage } = await extractJson(new PageCalls(caller, signal), ladder, page, input.request, logger);
      return { json, usage, truncated: page.truncated };
    },
    async summarize(input, signal) {
      const page = pageOf(input);
      const calls = new PageCalls(caller, signal);
      const summary = await summarize(calls, page, summaryMaxChars, input.language);
      return { summary, usage: calls.usage, truncated: page.truncated };
    },
    load: () => slots.load(),
  };
}
