// How the service reaches an OpenAI-compatible Chat Completions endpoint (LLM_* settings, docs/structured-llm.md).

export interface LlmSettings {
  /** Base URL up to and including the API version path, e.g. http://127.0.0.1:11434/v1. */
  baseUrl: string;
  /** Optional: local servers (Ollama, llama.cpp, vLLM without --api-key) need none. */
  apiKey?: string;
  model: string;
  /** Bound of one HTTP request to the endpoint, answer body included. */
  timeoutMs: number;
  /** Retries of one request on 408/429/5xx, timeouts and connection errors. */
  maxRetries: number;
  /** Model requests in flight across the process (one extractor per process). */
  concurrency: number;
  /** Budget of the page content sent to the model, in characters. */
  maxInputChars: number;
  /** Longest summary kept, in characters. */
  summaryMaxChars?: number;
}

export const LLM_DEFAULTS = {
  timeoutMs: 60_000,
  maxRetries: 2,
  concurrency: 4,
  // ~25k tokens of Latin-script text: fits the context of every model worth using for extraction.
  maxInputChars: 100_000,
  summaryMaxChars: 1000,
} as const;

/** Longest wait a Retry-After header can impose before a retry; a server asking for more gets this. */
export const RETRY_AFTER_CAP_MS = 30_000;
