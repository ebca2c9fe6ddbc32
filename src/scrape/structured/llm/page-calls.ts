// The model calls made for one page: each goes through the shared caller, and their token counts add up
// so the page's result (or its LlmError) carries the total.
import type { TokenUsage } from '../types.js';
import { LlmError } from './errors.js';
import type { ModelAnswer, ModelCallOptions, ModelCaller } from './model-call.js';
import { addUsage, noUsage } from './usage.js';

export class PageCalls {
  readonly usage: TokenUsage = noUsage();

  constructor(
    private readonly caller: ModelCaller,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async call(options: ModelCallOptions): Promise<ModelAnswer> {
    try {
      const answer = await this.caller.call(options, this.signal);
      addUsage(this.usage, answer.usage);
      return answer;
    } catch (error) {
      throw error instanceof LlmError ? error.withUsage(this.usage) : error;
    }
  }

  fail(code: LlmError['code'], message: string): LlmError {
    return new LlmError(code, message, { usage: this.usage });
  }
}
