// Reading the JSON out of a model's answer. Servers that ignore response_format, and every server on the
// plain-prompt rung, let the model wrap the object in prose or a code fence; reasoning models (DeepSeek R1,
// Qwen 3 on Ollama) put their <think> block in the content.
import type { ValidateFunction } from 'ajv';
import { describeErrors } from '../schema.js';
import { isRecord } from '../../../util/text.js';

export type AnswerCheck = { ok: true; json: Record<string, unknown> } | { ok: false; problem: string };

/** The answer without a leading reasoning block. */
export function stripReasoning(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>/i, '').trim();
}

/** The first balanced {...} in the text, strings and escapes respected; undefined when there is none. */
function firstObjectText(text: string): string | undefined {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        try {
          JSON.parse(candidate);
          return candidate;
        } catch {
          break; // Balanced but not JSON (prose in braces): try the next '{'.
        }
      }
    }
  }
  return undefined;
}

/** The JSON value the answer holds, whole, inside a code fence, or as the first object in prose. */
export function parseJsonAnswer(answer: string): { ok: true; value: unknown } | { ok: false } {
  const text = stripReasoning(answer);
  const tries = [text];
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text);
  if (fenced?.[1] !== undefined) tries.push(fenced[1].trim());
  for (const candidate of tries) {
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch {
      // Next form.
    }
  }
  const object = firstObjectText(text);
  return object === undefined ? { ok: false } : { ok: true, value: JSON.parse(object) as unknown };
}

/** The answer as the page's json, or what is wrong with it (for the repair prompt and the error). */
export function checkAnswer(answer: string, validate: ValidateFunction | undefined): AnswerCheck {
  const parsed = parseJsonAnswer(answer);
  if (!parsed.ok) return { ok: false, problem: 'the answer is not JSON' };
  if (!isRecord(parsed.value)) return { ok: false, problem: 'the answer is not a JSON object' };
  if (validate && !validate(parsed.value)) {
    return { ok: false, problem: `the object does not match the schema: ${describeErrors(validate.errors)}` };
  }
  return { ok: true, json: parsed.value };
}
