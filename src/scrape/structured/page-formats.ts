// The `json` and `summary` formats of one page: what the extraction worker computes for them, then (with a model)
// the model calls, and the fields and metadata the page result gets. A failure here never fails the page: the other
// formats are still returned and saved, and the format carries an error code (docs/structured.md).
import type { ExtractResult, StructuredWork } from '../extract/index.js';
import type { PageOptions } from '../schema.js';
import { LlmError, type LlmExtractor } from './llm/index.js';
import type { JsonRequest, JsonSchema, StructuredErrorCode, TokenUsage } from './types.js';

export interface StructuredDeps {
  /** Absent: the built-in rules answer (metadata.extraction "rules"). */
  llm?: LlmExtractor;
  /** The model's name, reported in metadata.llm_model. */
  model?: string;
  /** LLM_MAX_INPUT_CHARS: the budget of the content a model reads. */
  maxInputChars: number;
}

export interface StructuredError {
  code: StructuredErrorCode;
  message: string;
}

/** What the page result gets: the formats' fields, and metadata that says how they were made. */
export interface StructuredOutcome {
  json?: Record<string, unknown> | null;
  summary?: string | null;
  metadata: {
    extraction: 'llm' | 'rules';
    llm_model?: string;
    llm_usage?: TokenUsage;
    llm_input_truncated?: boolean;
    json_error?: StructuredError;
    summary_error?: StructuredError;
  };
}

/** json_options as the structured code reads it (at least one of schema and user_prompt, checked at validation). */
export function jsonRequestOf(options: PageOptions): JsonRequest | undefined {
  const json = options.jsonOptions;
  if (!options.formats.includes('json') || json === undefined) return undefined;
  return {
    ...(json.schema !== undefined ? { schema: json.schema as JsonSchema } : {}),
    ...(json.user_prompt !== undefined ? { userPrompt: json.user_prompt } : {}),
    ...(json.schema_name !== undefined ? { schemaName: json.schema_name } : {}),
    ...(json.schema_description !== undefined ? { schemaDescription: json.schema_description } : {}),
  };
}

/** The extraction worker's share for this page, or undefined when neither format is asked for. */
export function structuredWork(options: PageOptions, deps: StructuredDeps | undefined): StructuredWork | undefined {
  const json = jsonRequestOf(options);
  const summary = options.formats.includes('summary');
  if (json === undefined && !summary) return undefined;
  if (deps?.llm) {
    // One content for both formats: extract_source picks it (markdown by default).
    return {
      modelSource: { kind: json !== undefined ? options.extractSource : 'markdown', budgetChars: deps.maxInputChars },
    };
  }
  return { ...(json !== undefined ? { json } : {}), ...(summary ? { summary: true } : {}) };
}

const RULES_FAILED: StructuredError = {
  code: 'EXTRACTION_FAILED',
  message: 'The built-in rules could not read this page',
};

/** Every property of the schema's top-level object, null: what the rules answer for a page with nothing to read. */
export function nullsFor(request: JsonRequest): Record<string, unknown> {
  const properties = request.schema?.properties;
  if (properties === null || typeof properties !== 'object') return {};
  return Object.fromEntries(Object.keys(properties).map((name) => [name, null]));
}

function zeroUsage(): TokenUsage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

function addUsage(sum: TokenUsage, more: TokenUsage): void {
  sum.prompt_tokens += more.prompt_tokens;
  sum.completion_tokens += more.completion_tokens;
  sum.total_tokens += more.total_tokens;
}

/** An abort of the caller (the client hung up, the job was cancelled) is not a format error: it ends the page. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function modelError(error: unknown): StructuredError {
  if (error instanceof LlmError) return { code: error.code, message: error.message };
  return { code: 'LLM_ERROR', message: 'The model call failed' };
}

/** The rules path: the worker has done everything; only failures need saying. */
function fromRules(options: PageOptions, extracted: Partial<ExtractResult>): StructuredOutcome {
  const outcome: StructuredOutcome = { metadata: { extraction: 'rules' } };
  const failed = extracted.structuredFailed ?? [];
  const json = jsonRequestOf(options);
  if (json !== undefined) {
    if (failed.includes('json') || extracted.json === undefined) {
      outcome.json = null;
      outcome.metadata.json_error = RULES_FAILED;
    } else {
      outcome.json = extracted.json;
    }
  }
  if (options.formats.includes('summary')) {
    if (failed.includes('summary') || extracted.summary === undefined) {
      outcome.summary = null;
      outcome.metadata.summary_error = RULES_FAILED;
    } else {
      outcome.summary = extracted.summary;
    }
  }
  return outcome;
}

/** The model path: the two formats' calls run side by side; each fails alone. */
async function fromModel(
  llm: LlmExtractor,
  options: PageOptions,
  content: string,
  page: { url: string; language?: string },
  deps: StructuredDeps,
  signal: AbortSignal | undefined,
): Promise<StructuredOutcome> {
  const usage = zeroUsage();
  let truncated = false;
  const outcome: StructuredOutcome = {
    metadata: { extraction: 'llm', ...(deps.model !== undefined ? { llm_model: deps.model } : {}) },
  };
  const json = jsonRequestOf(options);
  const input = {
    content,
    contentKind: json !== undefined ? options.extractSource : ('markdown' as const),
    url: page.url,
    ...(page.language !== undefined ? { language: page.language } : {}),
  };
  /** One format's model call: its answer, or its error code; usage and truncation counted either way. */
  const settle = async <A extends { usage: TokenUsage; truncated: boolean }>(
    call: Promise<A>,
    onAnswer: (answer: A) => void,
    onError: (error: StructuredError) => void,
  ): Promise<void> => {
    try {
      const answer = await call;
      addUsage(usage, answer.usage);
      truncated ||= answer.truncated;
      onAnswer(answer);
    } catch (error) {
      if (isAbort(error)) throw error;
      if (error instanceof LlmError) addUsage(usage, error.usage);
      onError(modelError(error));
    }
  };
  const calls: Array<Promise<void>> = [];
  if (json !== undefined) {
    calls.push(
      settle(
        llm.extractJson({ ...input, request: json }, signal),
        (answer) => (outcome.json = answer.json),
        (error) => {
          outcome.json = null;
          outcome.metadata.json_error = error;
        },
      ),
    );
  }
  if (options.formats.includes('summary')) {
    calls.push(
      settle(
        llm.summarize(input, signal),
        (answer) => (outcome.summary = answer.summary),
        (error) => {
          outcome.summary = null;
          outcome.metadata.summary_error = error;
        },
      ),
    );
  }
  await Promise.all(calls);
  outcome.metadata.llm_usage = usage;
  outcome.metadata.llm_input_truncated = truncated;
  return outcome;
}

/**
 * The structured formats of a page, after extraction. `extracted` is what the worker gave back (for a page that is
 * not HTML: the body's text as modelContent, nothing else). Undefined when neither format was asked for.
 */
export async function completeStructured(
  options: PageOptions,
  extracted: Partial<ExtractResult>,
  page: { url: string; language?: string },
  deps: StructuredDeps | undefined,
  signal: AbortSignal | undefined,
): Promise<StructuredOutcome | undefined> {
  if (!options.formats.includes('json') && !options.formats.includes('summary')) return undefined;
  if (deps?.llm) return fromModel(deps.llm, options, extracted.modelContent ?? '', page, deps, signal);
  return fromRules(options, extracted);
}
