// A second opinion on a text change from the configured model (docs/monitors.md, "Judgment"): is it meaningful for
// the monitor's goal? Without a model, or when the model fails, the rules' judgment stands (and says why).
import type { LlmExtractor } from '../scrape/structured/llm/index.js';
import type { Judgment } from './judge.js';

const DEFAULT_GOAL = 'Tell me when the content of this page changes in a way a reader would care about.';
/** Characters of the diff the model reads. */
const MAX_DIFF_CHARS = 12_000;

const JUDGMENT_SCHEMA = {
  type: 'object',
  properties: {
    meaningful: { type: 'boolean' },
    confidence: { type: 'string', enum: ['low', 'medium', 'high'] },
    reason: { type: 'string' },
  },
  required: ['meaningful', 'confidence', 'reason'],
  additionalProperties: false,
};

export async function judgeWithModel(
  llm: LlmExtractor,
  input: { goal: string | null; diffText: string; url: string; rules: Judgment },
  signal?: AbortSignal,
): Promise<Judgment> {
  const content = [
    `Goal of the person watching ${input.url}: ${input.goal ?? DEFAULT_GOAL}`,
    '',
    'Unified diff of the page text since the last reported state (lines starting with - went, + came):',
    input.diffText.slice(0, MAX_DIFF_CHARS),
  ].join('\n');
  try {
    const { json } = await llm.extractJson(
      {
        content,
        contentKind: 'markdown',
        url: input.url,
        request: {
          schema: JUDGMENT_SCHEMA,
          schemaName: 'change_judgment',
          userPrompt:
            'Judge whether this change to the page is meaningful for the goal: ignore timestamps, counters, ads and layout noise. Give a one-sentence reason.',
        },
      },
      signal,
    );
    const confidence = json.confidence;
    return {
      meaningful: json.meaningful === true,
      confidence: confidence === 'low' || confidence === 'medium' || confidence === 'high' ? confidence : 'low',
      reason: typeof json.reason === 'string' ? json.reason.slice(0, 1000) : '',
      status: 'complete',
      source: 'model',
    };
  } catch (error) {
    return { ...input.rules, model_error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}
