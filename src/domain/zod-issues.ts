// Turns Zod issues into the domain's validation issues ({field, message, code}), with the codes the API documents.
import type { z } from 'zod';
import type { ValidationIssue } from './errors.js';

function dotted(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => String(p)).join('.');
}

/**
 * Zod 4 renamed some issue codes; the API keeps the names its clients know from the
 * interface (`invalid_enum_value`, `invalid_string`, ...), mapped here in one place.
 */
export function toValidationIssues(issues: ReadonlyArray<z.core.$ZodIssue>): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const field = dotted(issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        // One issue per unknown key, named by its own path, so a typo points at itself.
        for (const key of issue.keys) {
          out.push({
            field: dotted([...issue.path, key]),
            message: `Unrecognized key: "${key}"`,
            code: 'unrecognized_keys',
          });
        }
        break;
      case 'invalid_value': {
        const allowed = issue.values.map((v) => JSON.stringify(v)).join(', ');
        out.push({
          field,
          code: issue.values.length > 1 ? 'invalid_enum_value' : 'invalid_literal',
          message: issue.values.length > 1 ? `Invalid enum value. Expected one of ${allowed}` : `Expected ${allowed}`,
        });
        break;
      }
      case 'invalid_format':
        out.push({ field, code: 'invalid_string', message: issue.message });
        break;
      case 'invalid_type': {
        const missing = (issue as { input?: unknown }).input === undefined && issue.message.includes('undefined');
        out.push({ field, code: 'invalid_type', message: missing ? 'Required' : issue.message });
        break;
      }
      default:
        out.push({ field, code: issue.code, message: issue.message });
    }
  }
  return out;
}
