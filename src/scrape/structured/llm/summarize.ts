// A page's `summary`: a plain-prompt call (no response_format, so every server takes it), cleaned and bounded.
import type { PageCalls } from './page-calls.js';
import { summaryMessages, type PagePromptInput } from './prompts.js';
import { cleanSummary } from './summary-text.js';

export async function summarize(
  calls: PageCalls,
  page: PagePromptInput,
  maxChars: number,
  language: string | undefined,
): Promise<string> {
  const answer = await calls.call({ messages: summaryMessages(page, maxChars, language) });
  const summary = cleanSummary(answer.content, maxChars);
  if (summary === '') throw calls.fail('LLM_INVALID_OUTPUT', 'The model answered with an empty summary');
  return summary;
}
