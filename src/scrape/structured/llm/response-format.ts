// The structured-output ladder: json_schema (the server constrains the answer to the schema), json_object
// (valid JSON, schema in the prompt), plain prompt (JSON asked for in words). Which rungs an endpoint
// refuses is learnt once per extractor, so later pages go straight to the one that works.
import type { JsonRequest } from '../types.js';
import type { LlmError } from './errors.js';
import type { ResponseFormat } from './model-call.js';

export type Rung = 'json_schema' | 'json_object' | 'prompt';

// A 400/422 about the request's response_format: servers without structured output (or without one of its
// modes) say so in these words. Checked only on those statuses, and only for the rungs that send one.
const FORMAT_REFUSAL = /response_format|json_schema|json_object|structured output|(?:un|not )supported/i;

export function isFormatRefusal(error: LlmError): boolean {
  return (error.status === 400 || error.status === 422) && FORMAT_REFUSAL.test(error.message);
}

/** OpenAI accepts [a-zA-Z0-9_-]{1,64} as a schema name; anything else would be refused as a bad response_format. */
export function schemaNameFor(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64);
  return /[a-zA-Z0-9]/.test(cleaned) ? cleaned : 'page';
}

export function responseFormatFor(rung: Rung, request: JsonRequest): ResponseFormat | undefined {
  if (rung === 'json_object') return { type: 'json_object' };
  if (rung === 'prompt' || !request.schema) return undefined;
  return {
    type: 'json_schema',
    json_schema: {
      name: schemaNameFor(request.schemaName),
      ...(request.schemaDescription ? { description: request.schemaDescription } : {}),
      schema: request.schema,
      // strict: true accepts only a subset of JSON Schema (all properties required, no additionalProperties);
      // clients' schemas are arbitrary, and the answer is validated here anyway.
      strict: false,
    },
  };
}

export class FormatLadder {
  private readonly refused = new Set<Rung>();

  /** The first rung not known to be refused; without a schema there is none to send, so json_schema is skipped. */
  current(hasSchema: boolean): Rung {
    if (hasSchema && !this.refused.has('json_schema')) return 'json_schema';
    if (!this.refused.has('json_object')) return 'json_object';
    return 'prompt';
  }

  /** Remembers a refusal; only a refusal of the request's format does this, never a transient failure. */
  refuse(rung: Rung): void {
    if (rung !== 'prompt') this.refused.add(rung);
  }
}
