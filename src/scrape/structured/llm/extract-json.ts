// A page's `json`: climb down the structured-output ladder until the endpoint accepts the request, check the
// answer against the schema, and give the model one chance to repair an unusable answer.
import type { ValidateFunction } from 'ajv';
import { checkJsonSchema } from '../schema.js';
import type { JsonRequest, TokenUsage } from '../types.js';
import { checkAnswer } from './answer.js';
import { LlmError } from './errors.js';
import type { ModelAnswer, ModelCallOptions } from './model-call.js';
import type { PageCalls } from './page-calls.js';
import { extractionMessages, repairMessages, type PagePromptInput } from './prompts.js';
import { isFormatRefusal, responseFormatFor, type FormatLadder, type Rung } from './response-format.js';

export interface Warner {
  warn(obj: object, msg: string): void;
}

function validatorFor(request: JsonRequest): ValidateFunction | undefined {
  if (!request.schema) return undefined;
  const checked = checkJsonSchema(request.schema);
  // Schemas are checked when the request comes in; one failing here is a caller's bug, not the model's.
  if (!checked.ok) throw new LlmError('LLM_ERROR', 'The schema does not compile');
  return checked.validate;
}

/** Sends the first request on the highest rung the endpoint accepts, learning refusals on the way down. */
async function firstAnswer(
  calls: PageCalls,
  ladder: FormatLadder,
  page: PagePromptInput,
  request: JsonRequest,
  logger: Warner | undefined,
): Promise<{ answer: ModelAnswer; sent: ModelCallOptions }> {
  const hasSchema = request.schema !== undefined;
  for (;;) {
    const rung: Rung = ladder.current(hasSchema);
    const sent: ModelCallOptions = {
      messages: extractionMessages(page, request),
      responseFormat: responseFormatFor(rung, request),
    };
    try {
      return { answer: await calls.call(sent), sent };
    } catch (error) {
      if (!(error instanceof LlmError) || rung === 'prompt' || !isFormatRefusal(error)) throw error;
      ladder.refuse(rung);
      logger?.warn(
        { refused: rung, next: ladder.current(hasSchema), status: error.status },
        'The model endpoint refused this response_format; using the next one from now on',
      );
    }
  }
}

export async function extractJson(
  calls: PageCalls,
  ladder: FormatLadder,
  page: PagePromptInput,
  request: JsonRequest,
  logger: Warner | undefined,
): Promise<{ json: Record<string, unknown>; usage: TokenUsage }> {
  const validate = validatorFor(request);
  const { answer, sent } = await firstAnswer(calls, ladder, page, request, logger);
  const first = checkAnswer(answer.content, validate);
  if (first.ok) return { json: first.json, usage: calls.usage };

  // One repair on the same rung (it was accepted): the model sees its answer and what is wrong with it.
  const repaired = await calls.call({
    messages: repairMessages(sent.messages, answer.content, first.problem),
    responseFormat: sent.responseFormat,
  });
  const second = checkAnswer(repaired.content, validate);
  if (second.ok) return { json: second.json, usage: calls.usage };
  const cutShort = repaired.finishReason === 'length' ? ' (the answer was cut at the output token limit)' : '';
  throw calls.fail(
    'LLM_INVALID_OUTPUT',
    `The model's answer is unusable after a repair attempt: ${second.problem}${cutShort}`,
  );
}
