// Template management and resolution (docs/templates.md): create, read, update (a new version each time), delete
// (refused while tasks use it), the redacted spec, and a template with a caller's input turned into a request.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ConflictError, InvalidInputError, NotFoundError, type ValidationIssue } from '../domain/errors.js';
import { toValidationIssues } from '../domain/zod-issues.js';
import type { Clock } from '../util/time.js';
import type { TemplateRef } from '../domain/template-ref.js';
import { batchScrapeRequestSchema } from '../batch/schema.js';
import { crawlRequestSchema } from '../crawl/schema.js';
import { scrapeRequestSchema } from '../scrape/schema.js';
import { searchRequestSchema } from '../search/schema.js';
import { declarationIssues, expandTemplate, placeholdersIn, type TemplateUse } from './expand.js';
import {
  type CreateTemplateBody,
  TEMPLATE_LIMITS,
  type TemplateContent,
  type UpdateTemplateBody,
  UUID_SHAPE,
  type VariableSpec,
} from './schema.js';
import { SlugTakenError, type TemplateRecord, TemplateStore } from './store.js';
import { INPUT_FIELD, payloadUse, type TaskUsingTemplate, templateIdOf } from './task-payload.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export type { TemplateRef };

export interface TemplateServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The key's scheduled tasks that name a template by one of these refs (its id, its slug), with their payloads. */
  tasksUsing: (ownerId: string, refs: readonly string[]) => Promise<TaskUsingTemplate[]>;
}

/** The request schema each use is validated with, exactly as a direct request. */
const REQUEST_SCHEMAS: Record<TemplateUse, z.ZodType> = {
  scrape: scrapeRequestSchema,
  crawl: crawlRequestSchema,
  search: searchRequestSchema,
  batch_scrape: batchScrapeRequestSchema,
};

/** A sample value of each variable type, to check a template's options before any real value exists. */
function sampleOf(spec: VariableSpec): string | number | boolean {
  if (spec.defaultValue !== undefined) return spec.defaultValue;
  return spec.type === 'number'
    ? 1
    : spec.type === 'boolean'
      ? true
      : spec.type === 'url'
        ? 'https://example.com/'
        : 'x';
}

export class TemplateService {
  readonly store: TemplateStore;

  constructor(private readonly deps: TemplateServiceDeps) {
    this.store = new TemplateStore(deps.db);
  }

  private now(): string {
    return this.deps.clock().toISOString();
  }

  async create(ownerId: string, body: CreateTemplateBody): Promise<TemplateView> {
    const content: TemplateContent = {
      name: body.name,
      slug: body.slug ?? null,
      description: body.description ?? null,
      tags: body.tags ?? [],
      template_type: body.template_type,
      req_options: body.req_options ?? {},
      variables: body.variables ?? {},
      allowed_domains: body.allowed_domains ?? null,
    };
    this.check(content);
    if ((await this.store.countOwned(ownerId)) >= TEMPLATE_LIMITS.maxTemplatesPerKey)
      throw new ConflictError(
        'Too many templates',
        `A key may hold at most ${TEMPLATE_LIMITS.maxTemplatesPerKey} templates; delete some first`,
      );
    const id = randomUUID();
    await this.saving(() => this.store.insert(id, ownerId, content, this.now()));
    return templateView((await this.store.find(ownerId, id)) as TemplateRecord);
  }

  async update(ownerId: string, ref: string, body: UpdateTemplateBody): Promise<TemplateView> {
    const current = await this.get(ownerId, ref);
    const content: TemplateContent = { ...current.content };
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined) (content as unknown as Record<string, unknown>)[key] = value;
    }
    this.check(content);
    const users = await this.deps.tasksUsing(
      ownerId,
      current.content.slug === null ? [current.id] : [current.id, current.content.slug],
    );
    // Tasks that name the template by its slug would lose it.
    if (current.content.slug !== null && content.slug !== current.content.slug) {
      const bySlug = users
        .filter((task) => templateIdOf(task.task_type, task.task_payload) === current.content.slug)
        .map(listed);
      if (bySlug.length > 0)
        throw new ConflictError(
          'Template in use',
          `Scheduled tasks name this template by its slug '${current.content.slug}': ${describe(bySlug)}; change them first`,
          { tasks: bySlug },
        );
    }
    // Running tasks keep working across versions: a version their next run would refuse is not saved.
    const broken = users
      .map((task) => ({ ...listed(task), issues: this.taskIssues(content, task) }))
      .filter((task) => task.issues.length > 0);
    if (broken.length > 0)
      throw new ConflictError(
        'Template in use',
        `This version would make scheduled tasks fail: ${describe(broken)}; change them first (data.tasks says why)`,
        { tasks: broken },
      );
    const moved = await this.saving(() =>
      this.store.addVersion(current.id, current.currentVersion, content, this.now()),
    );
    if (!moved)
      throw new ConflictError(
        'Template changed meanwhile',
        'Another update made a new version first; read it and retry',
      );
    return templateView((await this.store.find(ownerId, current.id)) as TemplateRecord);
  }

  private async saving<T>(save: () => Promise<T>): Promise<T> {
    try {
      return await save();
    } catch (error) {
      if (error instanceof SlugTakenError)
        throw new InvalidInputError([
          { field: 'slug', code: 'custom', message: 'Another template of this key has this slug' },
        ]);
      throw error;
    }
  }

  /** The key's template by id or slug, at a version (default: the current one); 404 otherwise. */
  async get(ownerId: string, ref: string, version?: number): Promise<TemplateRecord> {
    // Ids are stored in lower case; a body may spell one in upper case, as a path may.
    const found = await this.store.find(ownerId, UUID_SHAPE.test(ref) ? ref.toLowerCase() : ref, version);
    if (!found) throw new NotFoundError(version === undefined ? 'template' : 'template version');
    return found;
  }

  async list(ownerId: string, limit: number, offset: number) {
    const { items, total } = await this.store.listOwned(ownerId, limit, offset);
    return { data: items.map(templateView), meta: { limit, offset, total } };
  }

  async versions(ownerId: string, ref: string) {
    const template = await this.get(ownerId, ref);
    return {
      template_id: template.id,
      current_version: template.currentVersion,
      versions: await this.store.versions(template.id),
    };
  }

  /** Deletes a template and its versions; 409 naming the tasks that still use it. */
  async delete(ownerId: string, ref: string): Promise<void> {
    const template = await this.get(ownerId, ref);
    const refs = template.content.slug === null ? [template.id] : [template.id, template.content.slug];
    const tasks = (await this.deps.tasksUsing(ownerId, refs)).map(listed);
    if (tasks.length > 0)
      throw new ConflictError(
        'Template in use',
        `Scheduled tasks use this template: ${describe(tasks)}; change or delete them first`,
        { tasks },
      );
    await this.store.delete(template.id);
  }

  /**
   * The request a template and a caller's own fields stand for, validated as a direct request of `use` is (400 with
   * every issue otherwise; 404 for a template that is not the key's).
   */
  async resolve(
    ownerId: string,
    templateId: string,
    use: TemplateUse,
    own: Record<string, unknown>,
    variables: Record<string, unknown> | undefined,
  ): Promise<{ body: Record<string, unknown>; template: TemplateRef }> {
    const template = await this.get(ownerId, templateId);
    const expansion = expandTemplate(template.content, use, own, variables);
    if (expansion.issues.length > 0) throw new InvalidInputError(expansion.issues);
    return { body: expansion.body, template: { id: template.id, version: template.version } };
  }

  /** What a task's next run would refuse if the template were `content`: none when it runs. */
  private taskIssues(content: TemplateContent, task: TaskUsingTemplate): ValidationIssue[] {
    try {
      const use = payloadUse(task.task_type, task.task_payload, content.template_type);
      const expansion = expandTemplate(content, use.type, use.own, use.variables);
      if (expansion.issues.length > 0) return expansion.issues;
      const parsed = REQUEST_SCHEMAS[use.type].safeParse(expansion.body);
      return parsed.success ? [] : toValidationIssues(parsed.error.issues);
    } catch (error) {
      if (error instanceof InvalidInputError) return error.issues;
      throw error;
    }
  }

  /** Validates an expanded request as the route of its use would; the parsed request, or a 400. */
  validate<T>(use: TemplateUse, body: Record<string, unknown>): T {
    const parsed = REQUEST_SCHEMAS[use].safeParse(body);
    if (!parsed.success) throw new InvalidInputError(toValidationIssues(parsed.error.issues));
    return parsed.data as T;
  }

  /**
   * A template's own problems: its body's size, its declarations, and options its type's request would refuse
   * (checked with sample values of the variables; target URLs are checked when a real value fills them).
   */
  private check(content: TemplateContent): void {
    if (JSON.stringify(content).length > TEMPLATE_LIMITS.maxBodyChars)
      throw new InvalidInputError([
        {
          field: '',
          code: 'too_big',
          message: `A template is at most ${TEMPLATE_LIMITS.maxBodyChars / 1024} KB of JSON`,
        },
      ]);
    const issues: ValidationIssue[] = declarationIssues(content);
    for (const key of ['template_id', 'variables']) {
      if (key in content.req_options)
        issues.push({
          field: `req_options.${key}`,
          code: 'custom',
          message: 'A template cannot name another template',
        });
    }
    if (content.allowed_domains && content.template_type === 'search')
      issues.push({
        field: 'allowed_domains',
        code: 'custom',
        message: 'allowed_domains applies to scrape and crawl templates (a search names no target URL)',
      });
    if (issues.length === 0) issues.push(...this.optionIssues(content));
    if (issues.length > 0) throw new InvalidInputError(issues);
  }

  private optionIssues(content: TemplateContent): ValidationIssue[] {
    const samples: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(content.variables)) samples[name] = sampleOf(spec);
    const own = { ...content, allowed_domains: null };
    const use: TemplateUse = content.template_type;
    const { body } = expandTemplate(own, use, {}, samples);
    const input = INPUT_FIELD[content.template_type];
    // The target URL is checked when a caller's value fills it; a sample stands in for it (and for a missing query).
    const candidate = { ...body, [input]: input === 'url' ? 'https://example.com/' : (body.query ?? 'sample') };
    const parsed = REQUEST_SCHEMAS[use].safeParse(candidate);
    if (parsed.success) return [];
    return toValidationIssues(parsed.error.issues).map((issue) => ({
      ...issue,
      field: issue.field === '' ? 'req_options' : `req_options.${issue.field}`,
    }));
  }
}

/** A task as a 409 lists it. */
function listed(task: TaskUsingTemplate): { task_id: string; name: string } {
  return { task_id: task.task_id, name: task.name };
}

function describe(tasks: ReadonlyArray<{ task_id: string; name: string }>): string {
  return tasks.map((t) => `${t.name} (${t.task_id})`).join(', ');
}

/** A template as the management routes answer it. */
export function templateView(t: TemplateRecord) {
  return {
    template_id: t.id,
    slug: t.content.slug,
    name: t.content.name,
    description: t.content.description,
    tags: t.content.tags,
    template_type: t.content.template_type,
    version: t.version,
    current_version: t.currentVersion,
    req_options: t.content.req_options,
    variables: t.content.variables,
    allowed_domains: t.content.allowed_domains,
    placeholders: [...placeholdersIn(t.content.req_options)],
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}
export type TemplateView = ReturnType<typeof templateView>;

/**
 * AnyCrawl's redacted call-spec (`GET /v1/template/{ref}`): what a caller needs to call it, not the options it
 * presets.
 */
export function templateSpec(t: TemplateRecord, ref: string) {
  return {
    template_id: t.id,
    slug: t.content.slug,
    name: t.content.name,
    description: t.content.description,
    template_type: t.content.template_type,
    version: t.version,
    endpoint: { method: 'POST', path: `/v1/template/${encodeURIComponent(ref)}/execute` },
    inputs: {
      [INPUT_FIELD[t.content.template_type]]: {
        required: !(INPUT_FIELD[t.content.template_type] in t.content.req_options),
      },
    },
    variables: t.content.variables,
    allowed_domains: t.content.allowed_domains,
  };
}
