import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import type { ErrorDetail } from '#shared/upstream/error-envelope.ts';

/** A request part failed its zod schema; the error handler answers 422 VALIDATION_ERROR with `details`. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  readonly details: ErrorDetail[];

  constructor(details: ErrorDetail[]) {
    super('Request validation failed');
    this.details = details;
  }
}

/** Validates each request part with its zod schema, keeping the issues for the envelope's details. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(issuesToDetails(result.error.issues, httpPart ?? 'body')) };
  };

/**
 * One detail per failing field: the dotted path (`passengers.adults`, `itinerary.0.date`) and a rule name
 * in the spec's vocabulary (`greater_than_equal`, `missing`, ...). A part that fails as a whole is named
 * after the part (`body`, `querystring`).
 */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], part: string): ErrorDetail[] {
  const details = new Map<string, ErrorDetail>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = fieldOf([...issue.path, key], part);
        if (!details.has(field)) {
          details.set(field, { field, code: 'extra_forbidden', message: 'Unknown field' });
        }
      }
      continue;
    }
    const field = fieldOf(issue.path, part);
    if (!details.has(field)) details.set(field, { field, code: ruleOf(issue), message: issue.message });
  }
  return [...details.values()];
}

function fieldOf(path: readonly PropertyKey[], part: string): string {
  return path.length === 0 ? part : path.map(String).join('.');
}

function ruleOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
    case 'too_small':
      if (issue.origin === 'string') return 'string_too_short';
      if (issue.origin === 'array' || issue.origin === 'set') return 'too_short';
      return issue.inclusive ? 'greater_than_equal' : 'greater_than';
    case 'too_big':
      if (issue.origin === 'string') return 'string_too_long';
      if (issue.origin === 'array' || issue.origin === 'set') return 'too_long';
      return issue.inclusive ? 'less_than_equal' : 'less_than';
    case 'invalid_format':
      return issue.format === 'regex' ? 'string_pattern_mismatch' : `${issue.format}_parsing`;
    case 'invalid_value':
      return issue.values.length === 1 ? 'literal_error' : 'enum';
    case 'not_multiple_of':
      return 'multiple_of';
    case 'custom': {
      const rule = (issue.params as { rule?: unknown } | undefined)?.rule;
      return typeof rule === 'string' ? rule : 'value_error';
    }
    default:
      return 'value_error';
  }
}
