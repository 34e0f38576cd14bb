import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesToDetails } from './request-validation.ts';

function detailsOf(schema: z.ZodType, input: unknown, part = 'body'): { field: string; code: string }[] {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) throw new Error('expected a failure');
  return issuesToDetails(result.error.issues, part).map(({ field, code }) => ({ field, code }));
}

describe('validation details', () => {
  it('names nested fields with dotted paths and numeric bounds with the spec rule names', () => {
    const schema = z.object({
      passengers: z.object({ adults: z.number().int().min(1).max(9) }),
      legs: z.array(z.object({ n: z.number().gt(0).lt(5) })),
    });
    expect(detailsOf(schema, { passengers: { adults: 0 }, legs: [{ n: 0 }, { n: 5 }] })).toEqual([
      { field: 'passengers.adults', code: 'greater_than_equal' },
      { field: 'legs.0.n', code: 'greater_than' },
      { field: 'legs.1.n', code: 'less_than' },
    ]);
    expect(detailsOf(schema, { passengers: { adults: 10 }, legs: [] })).toEqual([
      { field: 'passengers.adults', code: 'less_than_equal' },
    ]);
  });

  it('tells a missing field from a field of the wrong type', () => {
    const schema = z.object({ a: z.string(), b: z.number() });
    expect(detailsOf(schema, { b: 'x' })).toEqual([
      { field: 'a', code: 'missing' },
      { field: 'b', code: 'number_type' },
    ]);
  });

  it('names string, list, enum, format, pattern and unknown-key failures', () => {
    const schema = z.strictObject({
      name: z.string().min(2).max(3),
      tags: z.array(z.string()).min(1),
      cabin: z.enum(['economy', 'business']),
      date: z.iso.date(),
      code: z.string().regex(/^[A-Z]{3}$/),
    });
    expect(
      detailsOf(schema, { name: 'a', tags: [], cabin: 'x', date: '2026-13-01', code: 'ab', extra: 1 }),
    ).toEqual([
      { field: 'name', code: 'string_too_short' },
      { field: 'tags', code: 'too_short' },
      { field: 'cabin', code: 'enum' },
      { field: 'date', code: 'date_parsing' },
      { field: 'code', code: 'string_pattern_mismatch' },
      { field: 'extra', code: 'extra_forbidden' },
    ]);
  });

  it('uses the rule a refinement names, and the part name for a part that fails as a whole', () => {
    const schema = z
      .object({ a: z.number() })
      .refine(() => false, { path: ['a'], params: { rule: 'custom_rule' } });
    expect(detailsOf(schema, { a: 1 })).toEqual([{ field: 'a', code: 'custom_rule' }]);
    expect(detailsOf(z.object({}), 'text', 'querystring')).toEqual([
      { field: 'querystring', code: 'object_type' },
    ]);
  });

  it('keeps one detail per field', () => {
    const schema = z.object({ a: z.string().min(5).regex(/^\d+$/) });
    expect(detailsOf(schema, { a: 'x' })).toHaveLength(1);
  });
});
