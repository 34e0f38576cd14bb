import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTERS_RULE, hasRefusedCharacters, plainText } from './plain-text.ts';
import { CreateBookingRequestSchema } from './upstream/booking-operations.ts';
import { ProfilePatchSchema } from './upstream/profile.ts';

/** Every character the refinement refuses, one by one. */
const REFUSED = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
  0x2028,
  0x2029,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
].map((code) => String.fromCodePoint(code));
const REFUSED_SET = new Set(REFUSED);

const refused = fc.constantFrom(...REFUSED);
/** Any text without a refused character: any Unicode (marks, emoji, right-to-left scripts, LRM/RLM...). */
const allowedText = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .map((text) => [...text].filter((character) => !REFUSED_SET.has(character)).join(''));

describe('plainText, the one refinement of free text', () => {
  it('refuses a text with any control, separator or bidi override character anywhere in it', () => {
    fc.assert(
      fc.property(allowedText, refused, allowedText, (before, character, after) => {
        const result = plainText().safeParse(`${before}${character}${after}`);
        expect(result.success).toBe(false);
        expect(result.error?.issues).toEqual([
          expect.objectContaining({ code: 'custom', params: { rule: CONTROL_CHARACTERS_RULE } }),
        ]);
      }),
    );
  });

  it('keeps every other text as it is, right-to-left marks and combined emoji included', () => {
    fc.assert(
      fc.property(allowedText, (text) => {
        expect(plainText().parse(text)).toBe(text);
      }),
    );
    for (const text of ['Zoë Ångström', 'אבי\u200F כהן', 'Ali\u200E علي', '👩‍👩‍👧 Family', 'O’Brien-Smith']) {
      expect(plainText().parse(text)).toBe(text);
    }
  });

  it('allows line feeds, and nothing else refused, where a text may run over several lines', () => {
    expect(plainText({ lines: true }).parse('Faster search.\nOffline trips.')).toBe(
      'Faster search.\nOffline trips.',
    );
    for (const character of REFUSED.filter((one) => one !== '\n')) {
      expect(hasRefusedCharacters(`a${character}b`, { lines: true }), JSON.stringify(character)).toBe(true);
    }
  });

  it('judges the text as sent, before a trim could hide a trailing line break', () => {
    const name = plainText().trim().min(1);
    expect(name.safeParse('Alex\r\n').success).toBe(false);
    expect(name.parse('  Alex ')).toBe('Alex');
  });

  it('names the field in a booking and a profile change, as the only issue of that field', () => {
    const booking = CreateBookingRequestSchema.safeParse({
      offerId: crypto.randomUUID(),
      price: { amount: 100, currency: 'EUR' },
      paymentMethodId: 'pm_1',
      traveler: { name: 'a\u0000b\u0007', email: 'alex\u202E@example.com', phone: '+44 20 7946 0000\r\n' },
    });
    expect(booking.error?.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      ['traveler.name', 'custom'],
      ['traveler.email', 'custom'],
      ['traveler.phone', 'custom'],
    ]);
    const patch = ProfilePatchSchema.safeParse({
      name: 'line\r\nX-Injected: 1',
      loyaltyPrograms: [{ program: 'Miles\u2066', memberNumber: '12\u0085' }],
    });
    expect(patch.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'name',
      'loyaltyPrograms.0.program',
      'loyaltyPrograms.0.memberNumber',
    ]);
  });
});
