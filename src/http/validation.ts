// Plugs Zod into Fastify: failed validation becomes the API's 400 with the domain's validation issues.
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { toValidationIssues } from '../domain/zod-issues.js';
import { validationError } from './errors.js';

/** Parses `input` with `schema`, throwing the API's 400 validation error on failure. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(toValidationIssues(result.error.issues));
  return result.data;
}

/** Fastify validator that keeps Zod's issues intact for the error handler. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    // A request without a body reaches validation as null: it is an absent body, which an
    // optional body schema accepts and a required one refuses with "Required".
    const result = schema.safeParse(httpPart === 'body' && data === null ? undefined : data);
    if (result.success) return { value: result.data };
    return { error: validationError(toValidationIssues(result.error.issues)) };
  };
