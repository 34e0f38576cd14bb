import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import { CURRENCIES } from './flights.ts';
import { LocaleSchema } from './locale.ts';

export { LocaleSchema };

/** GET /v1/profile and the answer to PATCH /v1/profile. */
export const ProfileSchema = z.looseObject({
  travelerId: z.uuid(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** IATA code of the airport searches start from, or null. */
  homeAirport: z.string().nullable(),
  currency: z.string(),
  /** BCP 47 language tag for dates, numbers and text. */
  locale: z.string(),
  /** Default travel kind: true is personal, false business (the meaning stays fares give it). */
  bookingProfile: z.boolean(),
  loyaltyPrograms: z.array(z.looseObject({ program: z.string(), memberNumber: z.string() })),
  updatedAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** Body of PATCH /v1/profile (additive): the fields to change; at least one. */
export const ProfilePatchSchema = z
  .object({
    name: plainText().trim().min(1).max(120).optional(),
    homeAirport: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'Expected a three-letter IATA airport code')
      .transform((code) => code.toUpperCase())
      .nullable()
      .optional(),
    currency: z.enum(CURRENCIES).optional(),
    locale: LocaleSchema.optional(),
    bookingProfile: z.boolean().optional(),
    loyaltyPrograms: z
      .array(
        z.object({
          program: plainText().trim().min(1).max(80),
          memberNumber: plainText().trim().min(1).max(40),
        }),
      )
      .max(10)
      .optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'Send at least one field to change',
    params: { rule: 'missing' },
  });
export type ProfilePatch = z.input<typeof ProfilePatchSchema>;
