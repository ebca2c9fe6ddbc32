// Request schemas of template management (docs/templates.md): a template's type, its preset request options, its
// declared variables and its allowed domains, with the limits that bound them.
import { z } from 'zod';

export const TEMPLATE_TYPES = ['scrape', 'crawl', 'search'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export const VARIABLE_TYPES = ['string', 'number', 'boolean', 'url'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export const TEMPLATE_LIMITS = {
  /** The JSON of a template's body (create or update) at most, in characters. */
  maxBodyChars: 64 * 1024,
  maxVariables: 50,
  /** A string variable's value, and a default, at most. */
  maxStringChars: 2000,
  maxDomainPatterns: 100,
  maxDomainPatternChars: 253,
  maxTags: 20,
  /** Templates one key may hold. */
  maxTemplatesPerKey: 1000,
} as const;

/** A variable's name: what `{{name}}` placeholders refer to. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** A template's slug: what a caller may name it by instead of its id. */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** A template id, in any case (a slug, lower case by SLUG, is never shaped like one). */
export const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Hostname globs: letters, digits, dots, hyphens and the wildcards `*` and `?`. */
const DOMAIN_PATTERN = /^[A-Za-z0-9.*?-]+$/;

export const variableSpecSchema = z.strictObject({
  type: z.enum(VARIABLE_TYPES),
  required: z.boolean().optional(),
  defaultValue: z.union([z.string().max(TEMPLATE_LIMITS.maxStringChars), z.number(), z.boolean()]).optional(),
  description: z.string().max(1000).optional(),
  label: z.string().max(200).optional(),
});
export type VariableSpec = z.infer<typeof variableSpecSchema>;

export const allowedDomainsSchema = z.strictObject({
  type: z.enum(['exact', 'glob']),
  patterns: z
    .array(
      z
        .string()
        .min(1)
        .max(TEMPLATE_LIMITS.maxDomainPatternChars)
        .regex(DOMAIN_PATTERN, 'Must be a hostname, or a glob of one with * and ?'),
    )
    .min(1)
    .max(TEMPLATE_LIMITS.maxDomainPatterns),
});
export type AllowedDomains = z.infer<typeof allowedDomainsSchema>;

const fields = {
  name: z.string().trim().min(1).max(255),
  slug: z
    .string()
    .regex(SLUG, 'Lower-case letters, digits and inner hyphens, 1 to 64 characters')
    .refine((slug) => !UUID_SHAPE.test(slug), { message: 'A slug cannot look like a template id (a UUID)' })
    .nullable(),
  description: z.string().max(10_000).nullable(),
  tags: z.array(z.string().min(1).max(50)).max(TEMPLATE_LIMITS.maxTags),
  template_type: z.enum(TEMPLATE_TYPES),
  /** The options the template presets: fields of its type's request (`/v1/scrape`, `/v1/crawl`, `/v1/search`). */
  req_options: z.record(z.string(), z.unknown()),
  variables: z
    .record(
      z.string().regex(VARIABLE_NAME, 'A variable name is a letter or _ then letters, digits or _'),
      variableSpecSchema,
    )
    .refine((v) => Object.keys(v).length <= TEMPLATE_LIMITS.maxVariables, {
      message: `At most ${TEMPLATE_LIMITS.maxVariables} variables`,
    }),
  allowed_domains: allowedDomainsSchema.nullable(),
};

export const createTemplateSchema = z
  .strictObject({
    name: fields.name,
    slug: fields.slug.optional(),
    description: fields.description.optional(),
    tags: fields.tags.optional(),
    template_type: fields.template_type,
    req_options: fields.req_options.optional(),
    variables: fields.variables.optional(),
    allowed_domains: fields.allowed_domains.optional(),
  })
  .meta({ id: 'CreateTemplateRequest' });
export type CreateTemplateBody = z.infer<typeof createTemplateSchema>;

/** Any subset of the writable fields; the type of a template never changes (make a new template instead). */
export const updateTemplateSchema = z
  .strictObject({
    name: fields.name.optional(),
    slug: fields.slug.optional(),
    description: fields.description.optional(),
    tags: fields.tags.optional(),
    req_options: fields.req_options.optional(),
    variables: fields.variables.optional(),
    allowed_domains: fields.allowed_domains.optional(),
  })
  .meta({ id: 'UpdateTemplateRequest' });
export type UpdateTemplateBody = z.infer<typeof updateTemplateSchema>;

/** AnyCrawl's execute body: the input the template needs, and variables; every other option is the template's. */
export const executeTemplateSchema = z
  .strictObject({
    url: z.string().max(8192).optional(),
    query: z.string().max(2000).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'TemplateExecuteRequest' });
export type ExecuteTemplateBody = z.infer<typeof executeTemplateSchema>;

export const listTemplatesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** What a version of a template holds (stored as JSON, one row per version). */
export interface TemplateContent {
  name: string;
  slug: string | null;
  description: string | null;
  tags: string[];
  template_type: TemplateType;
  req_options: Record<string, unknown>;
  variables: Record<string, VariableSpec>;
  allowed_domains: AllowedDomains | null;
}
