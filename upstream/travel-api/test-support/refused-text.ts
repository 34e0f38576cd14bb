import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';

/** Every character free text refuses: the controls (C0, DEL, C1), U+2028/9 and the bidi overrides and isolates. */
export const REFUSED_CHARACTERS: readonly string[] = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
  0x2028,
  0x2029,
  ...Array.from({ length: 5 }, (_, offset) => 0x202a + offset),
  ...Array.from({ length: 4 }, (_, offset) => 0x2066 + offset),
].map((code) => String.fromCodePoint(code));

/** The texts that were stored and given back in bookings before free text was checked. */
export const STORED_BEFORE = ['a\u0000b\u0007', 'line\r\nX-Injected: 1', 'Alex \u202Enagrom'];

/** A free-text field of a request: its dotted path as the envelope names it, and a valid value of it. */
export interface TextField {
  field: string;
  valid: string;
}

export interface RefusedInput {
  field: string;
  value: string;
}

/**
 * `count` inputs, each one of `fields` with one refused character put somewhere in its valid value (drawn
 * by fast-check, reproducible with `seed`), and each text of STORED_BEFORE in the first field.
 */
export function refusedInputs(fields: readonly TextField[], count: number, seed = 23): RefusedInput[] {
  const [first] = fields;
  if (first === undefined) throw new Error('no field to put refused characters in');
  const drawn = fc.sample(
    fc.record({
      field: fc.constantFrom(...fields),
      character: fc.constantFrom(...REFUSED_CHARACTERS),
      at: fc.nat(),
    }),
    { numRuns: count, seed },
  );
  return [
    ...STORED_BEFORE.map((value) => ({ field: first.field, value })),
    ...drawn.map(({ field, character, at }) => {
      const index = at % (field.valid.length + 1);
      return {
        field: field.field,
        value: field.valid.slice(0, index) + character + field.valid.slice(index),
      };
    }),
  ];
}

/** Sets a dotted path (`traveler.name`, `loyaltyPrograms.0.program`) in a copy of a JSON body. */
export function withField(body: unknown, path: string, value: string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1) ?? path] = value;
  return copy;
}

/** A booking body valid in every free-text field (its offer is unknown: validation answers first). */
export const BOOKING_BODY = {
  offerId: randomUUID(),
  price: { amount: 100, currency: 'EUR' },
  paymentMethodId: 'pm_company_1',
  traveler: { name: 'Alex Morgan', email: 'alex@example.com', phone: '+44 20 7946 0000' },
};
export const BOOKING_TEXT_FIELDS: readonly TextField[] = [
  { field: 'traveler.name', valid: BOOKING_BODY.traveler.name },
  { field: 'traveler.email', valid: BOOKING_BODY.traveler.email },
  { field: 'traveler.phone', valid: BOOKING_BODY.traveler.phone },
  { field: 'paymentMethodId', valid: BOOKING_BODY.paymentMethodId },
];

/** A profile change valid in every free-text field. */
export const PROFILE_PATCH = {
  name: 'Alex Morgan',
  loyaltyPrograms: [{ program: 'Miles & More', memberNumber: '992 001 734' }],
};
export const PROFILE_TEXT_FIELDS: readonly TextField[] = [
  { field: 'name', valid: PROFILE_PATCH.name },
  { field: 'loyaltyPrograms.0.program', valid: 'Miles & More' },
  { field: 'loyaltyPrograms.0.memberNumber', valid: '992 001 734' },
];

/** The answer refuses the field as free text: 422 VALIDATION_ERROR FIX_INPUT, one detail naming it. */
export async function expectRefusedField(response: Response, field: string, sent: string): Promise<void> {
  const label = `${field}=${JSON.stringify(sent)}`;
  expect(response.status, label).toBe(422);
  const { error } = ErrorEnvelopeSchema.parse(await response.json());
  expect(error, label).toMatchObject({ code: 'VALIDATION_ERROR', recoveryAction: 'FIX_INPUT' });
  expect(error.details, label).toEqual([expect.objectContaining({ field, code: 'control_characters' })]);
}
