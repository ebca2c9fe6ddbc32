// One Chat Completions call as the page sees it: a slot of the process-wide bound, then the request with
// its own timeout and retries, the answer's text and token counts. The openai client's built-in retries are
// off (maxRetries 0): it honours any Retry-After however long, sleeps through the caller's abort, and its
// timeout stops at the response headers; the loop here caps the wait, wakes on abort and bounds the body too.
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { TokenUsage } from '../types.js';
import { retryDelayMs } from './backoff.js';
import { classifyFailure, type CallFailure } from './call-failure.js';
import { abortError, LlmError } from './errors.js';
import type { Semaphore } from './semaphore.js';
import type { LlmSettings } from './settings.js';
import { usageOf } from './usage.js';

export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ResponseFormat = NonNullable<
  OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming['response_format']
>;

export interface ModelAnswer {
  /** The message's text ('' when the model sent none, e.g. a refusal). */
  content: string;
  finishReason: string | null;
  usage: TokenUsage;
}

export interface ModelCallOptions {
  messages: ChatMessage[];
  responseFormat?: ResponseFormat;
}

const NOT_A_COMPLETION: CallFailure = {
  code: 'LLM_ERROR',
  retryable: false,
  message: 'The endpoint did not answer with a chat completion; check LLM_BASE_URL',
};

export function newOpenAiClient(settings: LlmSettings): OpenAI {
  return new OpenAI({
    baseURL: settings.baseUrl,
    // The client insists on a key; local servers need none, so a placeholder is given and the header dropped.
    apiKey: settings.apiKey ?? 'unused',
    ...(settings.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    // Not from OPENAI_ORG_ID / OPENAI_PROJECT_ID: the endpoint is whatever LLM_BASE_URL names.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: settings.timeoutMs,
    // Its debug log prints request bodies (page content); OPENAI_LOG must not turn that on.
    logLevel: 'off',
  });
}

export class ModelCaller {
  constructor(
    private readonly client: OpenAI,
    private readonly settings: LlmSettings,
    private readonly slots: Semaphore,
  ) {}

  /** The answer, or an LlmError (usage 0: a failed request has no counts), or the caller's AbortError. */
  async call(options: ModelCallOptions, signal?: AbortSignal): Promise<ModelAnswer> {
    const release = await this.slots.acquire(signal);
    try {
      for (let retry = 0; ; retry++) {
        const outcome = await this.attempt(options, signal);
        if (!('failure' in outcome)) return outcome;
        const { failure } = outcome;
        if (!failure.retryable || retry >= this.settings.maxRetries) {
          throw new LlmError(failure.code, failure.message, { status: failure.status });
        }
        try {
          await sleep(retryDelayMs(retry, failure.retryAfterMs), undefined, { signal });
        } catch {
          throw abortError(signal!);
        }
      }
    } finally {
      release();
    }
  }

  private async attempt(
    options: ModelCallOptions,
    signal: AbortSignal | undefined,
  ): Promise<ModelAnswer | { failure: CallFailure }> {
    // One controller per request: the timer and the caller's signal both end it, body read included.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.settings.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          messages: options.messages,
          ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
        },
        { signal: controller.signal },
      );
      // A base URL without its /v1 often reaches a web UI that answers 200 with HTML; retrying cannot help.
      if (!Array.isArray((completion as { choices?: unknown } | null)?.choices)) {
        return { failure: NOT_A_COMPLETION };
      }
      const choice = completion.choices[0];
      return {
        content: typeof choice?.message?.content === 'string' ? choice.message.content : '',
        finishReason: choice?.finish_reason ?? null,
        usage: usageOf(completion.usage),
      };
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      return { failure: classifyFailure(error, timedOut, this.settings.apiKey) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
