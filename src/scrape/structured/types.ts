// Shared shapes of structured extraction (the `json` and `summary` formats): what a request asks for, what a
// page's answer carries. The rules path (structured/rules, no model) and the model path (structured/llm) both
// speak these.

/** A JSON Schema as the client sent it (json_options.schema), already checked to compile (structured/schema.ts). */
export type JsonSchema = Record<string, unknown>;

/** json_options of a request, resolved. At least one of `schema` and `userPrompt` is present. */
export interface JsonRequest {
  schema?: JsonSchema;
  userPrompt?: string;
  schemaName?: string;
  schemaDescription?: string;
}

/** Token counts of one page's model calls (the sum over its calls, retries and repair included). */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * Why a page's `json` or `summary` is missing; the rest of the page is still returned and saved.
 * LLM_TIMEOUT: no answer within LLM_TIMEOUT_MS (after retries). LLM_RATE_LIMITED: 429 after the retries.
 * LLM_UNAVAILABLE: the endpoint could not be reached or answered 5xx after the retries.
 * LLM_INVALID_OUTPUT: the answer was not JSON valid against the schema, also after the repair attempt.
 * LLM_ERROR: the endpoint refused the request otherwise (4xx: a wrong model name, a bad key).
 * EXTRACTION_FAILED: the rules path failed on this page.
 */
export type StructuredErrorCode =
  'LLM_TIMEOUT' | 'LLM_RATE_LIMITED' | 'LLM_UNAVAILABLE' | 'LLM_INVALID_OUTPUT' | 'LLM_ERROR' | 'EXTRACTION_FAILED';
