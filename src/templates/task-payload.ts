// What a scheduled task's payload asks of a template: the operation, the template it names, the caller's own fields
// and variables (docs/templates.md, "Scheduled tasks"). Pure, so that a template's update can check the tasks that
// use it against the new version before saving it.
import { InvalidInputError, type ValidationIssue } from '../domain/errors.js';
import type { TemplateUse } from './expand.js';
import type { TemplateType } from './schema.js';

/** The field a template's type needs from a caller that is not in its options (`url` or `query`). */
export const INPUT_FIELD: Record<TemplateType, 'url' | 'query'> = { scrape: 'url', crawl: 'url', search: 'query' };

export interface PayloadUse {
  type: TemplateUse;
  /** The template the payload names (an id or a slug), if any. */
  templateRef: unknown;
  own: Record<string, unknown>;
  variables: Record<string, unknown> | undefined;
}

/**
 * The use of a payload of `taskType` (it has passed its schema). A `template` task takes its operation from the
 * template (`templateType`). Variables without a template, and a template task's input the template does not take
 * (`url` for a search template), are 400s: they would be dropped without a word.
 */
export function payloadUse(
  taskType: string,
  payload: Record<string, unknown>,
  templateType?: TemplateType,
): PayloadUse {
  let use: PayloadUse;
  if (taskType === 'template') {
    if (templateType === undefined) throw new Error('A template task needs its template’s type');
    use = {
      type: templateType,
      templateRef: payload.template_id,
      own: templateInput(templateType, payload),
      variables: payload.variables as Record<string, unknown> | undefined,
    };
  } else if (taskType === 'crawl') {
    const { url, engine, options } = payload as { url: string; engine?: string; options?: Record<string, unknown> };
    const { template_id: templateRef, variables, ...rest } = options ?? {};
    use = {
      type: 'crawl',
      templateRef,
      variables: variables as Record<string, unknown> | undefined,
      own: { ...rest, url, ...(engine !== undefined ? { engine } : {}) },
    };
  } else if (taskType === 'scrape' || taskType === 'search') {
    const { template_id: templateRef, variables, ...rest } = payload;
    use = { type: taskType, templateRef, variables: variables as Record<string, unknown> | undefined, own: rest };
  } else {
    throw new Error(`Unknown task type ${taskType}`);
  }
  if (use.templateRef === undefined && use.variables !== undefined)
    throw new InvalidInputError([VARIABLES_WITHOUT_TEMPLATE]);
  return use;
}

/**
 * The caller's own fields of a call by template alone (a `template` task, AnyCrawl's execute endpoint): the input its
 * type takes (`url` or `query`), if given. The other one is a 400: it would be dropped without a word.
 */
export function templateInput(type: TemplateType, input: Record<string, unknown>): Record<string, unknown> {
  const field = INPUT_FIELD[type];
  const other = field === 'url' ? 'query' : 'url';
  if (input[other] !== undefined)
    throw new InvalidInputError([
      { field: other, code: 'custom', message: `A ${type} template takes \`${field}\`, not \`${other}\`` },
    ]);
  return input[field] !== undefined ? { [field]: input[field] } : {};
}

/** The template a task payload names: a `template` task's, or one in a scrape, crawl (`options`) or search payload. */
export function templateIdOf(taskType: string, payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const fields = payload as Record<string, unknown>;
  if (taskType === 'crawl') {
    const options = fields.options;
    return typeof options === 'object' && options !== null
      ? (options as Record<string, unknown>).template_id
      : undefined;
  }
  return fields.template_id;
}

/** A scheduled task that names a template, with what it asks of it. */
export interface TaskUsingTemplate {
  task_id: string;
  name: string;
  task_type: string;
  task_payload: Record<string, unknown>;
}

/** The issue of `variables` sent without a template to fill (under `options` in a crawl task, by its caller). */
export const VARIABLES_WITHOUT_TEMPLATE: ValidationIssue = {
  field: 'variables',
  code: 'custom',
  message: 'variables fill a template’s placeholders: they need template_id',
};
