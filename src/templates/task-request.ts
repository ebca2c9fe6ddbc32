// The request a scheduled task's payload stands for, its template expanded (a `template` task, or a template_id in a
// scrape, crawl or search payload) and validated as the operation's own route validates it. Tasks check it when they
// are saved and the scheduler makes it again at each run, from the template's version current then.
import { InvalidInputError, type ValidationIssue } from '../domain/errors.js';
import type { TemplateRef } from '../domain/template-ref.js';
import type { CrawlRequest } from '../crawl/schema.js';
import type { ScrapeRequest } from '../scrape/schema.js';
import type { SearchRequest } from '../search/schema.js';
import { payloadUse } from './task-payload.js';
import { TemplateService } from './service.js';

export type TaskRequest =
  | { type: 'scrape'; request: ScrapeRequest; template?: TemplateRef }
  | { type: 'crawl'; request: CrawlRequest; template?: TemplateRef }
  | { type: 'search'; request: SearchRequest; template?: TemplateRef };

/** Where a template's problems are reported in a task payload: a crawl's request fields live under `options`. */
function underPayload(issues: readonly ValidationIssue[], type: string): ValidationIssue[] {
  return issues.map((issue) => {
    const top = issue.field.split('.')[0] ?? '';
    const inOptions = type === 'crawl' && !['url', 'engine', ''].includes(top);
    return { ...issue, field: `task_payload.${inOptions ? 'options.' : ''}${issue.field}`.replace(/\.$/, '') };
  });
}

/**
 * The operation and validated request of a task payload of `taskType` (the payload has passed its schema). A template
 * that is not the key's is a 404 (as wherever a template is named); a variable problem or an expanded request the
 * route would refuse is a 400 under `task_payload.…`.
 */
export async function taskRequest(
  templates: TemplateService,
  ownerId: string,
  taskType: string,
  payload: Record<string, unknown>,
): Promise<TaskRequest> {
  try {
    return await expandPayload(templates, ownerId, taskType, payload);
  } catch (error) {
    if (error instanceof InvalidInputError)
      throw new InvalidInputError(underPayload(error.issues, taskType === 'crawl' ? 'crawl' : ''));
    throw error;
  }
}

async function expandPayload(
  templates: TemplateService,
  ownerId: string,
  taskType: string,
  payload: Record<string, unknown>,
): Promise<TaskRequest> {
  const named = taskType === 'template' ? await templates.get(ownerId, String(payload.template_id)) : undefined;
  const { type, templateRef, own, variables } = payloadUse(taskType, payload, named?.content.template_type);
  if (templateRef === undefined) return { type, request: own } as TaskRequest;
  const { body, template } = await templates.resolve(ownerId, String(templateRef), type, own, variables);
  return { type, request: templates.validate(type, body), template } as TaskRequest;
}

/** A crawl request in the shape of a crawl task's payload (`url`, `engine`, `options`). */
export function crawlPayloadOf(request: CrawlRequest): Record<string, unknown> {
  const { url, engine, ...options } = request;
  return { url, ...(engine !== undefined ? { engine } : {}), options };
}
