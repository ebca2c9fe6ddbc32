// The errors of the model path: LlmError (a code the page's result carries) and the AbortError that tells a
// caller its own signal ended the work.
import type { StructuredErrorCode, TokenUsage } from '../types.js';
import { noUsage } from './usage.js';

export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly code: StructuredErrorCode;
  /** Tokens the page's calls had used when it failed. */
  readonly usage: TokenUsage;
  /** HTTP status the endpoint answered, when it answered one. */
  readonly status?: number;

  constructor(code: StructuredErrorCode, message: string, options: { usage?: TokenUsage; status?: number } = {}) {
    super(message);
    this.code = code;
    this.usage = options.usage ? { ...options.usage } : noUsage();
    if (options.status !== undefined) this.status = options.status;
  }

  /** The same failure with the usage of the whole page. */
  withUsage(usage: TokenUsage): LlmError {
    return new LlmError(this.code, this.message, { usage, status: this.status });
  }
}

/** What a caller whose signal aborted gets: its own reason when that is an AbortError, else a new one. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
