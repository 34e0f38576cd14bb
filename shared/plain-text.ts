import { z } from 'zod';

/** The rule a details entry names when a text holds a character refused below (FIX_INPUT, 422). */
export const CONTROL_CHARACTERS_RULE = 'control_characters';

/**
 * What no text a traveler or a client writes may hold: the control characters (Unicode's Cc: the C0
 * controls U+0000-U+001F, so also CR, LF and tab, then DEL and the C1 controls U+007F-U+009F), the line
 * and paragraph separators (U+2028, U+2029), and the bidi embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069), which reorder the text around them when shown. The left-to-right and
 * right-to-left marks (U+200E, U+200F) and the Arabic letter mark (U+061C) stay allowed: they reorder
 * nothing beyond the neutral characters next to them, and names and keyboards in right-to-left scripts
 * use them.
 */
const REFUSED_IN_A_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** The same, where a text may run over several lines: LF is then allowed (never CR). */
const REFUSED_IN_LINES = /(?!\n)[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export interface PlainTextOptions {
  /** true: line feeds (LF) are allowed, for texts shown on several lines. */
  lines?: boolean;
}

/** Whether a text holds a character plainText refuses. */
export function hasRefusedCharacters(text: string, options: PlainTextOptions = {}): boolean {
  return (options.lines ? REFUSED_IN_LINES : REFUSED_IN_A_LINE).test(text);
}

/**
 * A string of free text: every free-text field of the BFF's and the travel API's requests starts with it,
 * so each refuses control and bidi override characters the same way, with a details entry naming the
 * field (`control_characters`). The check runs first, on the text as sent (before any trim), and stops
 * the field's other checks. Chain the field's own rules after it (`plainText().trim().min(1)`), or pipe it
 * into a format (`plainText().pipe(z.email())`).
 */
export function plainText(options: PlainTextOptions = {}) {
  return z.string().refine((text) => !hasRefusedCharacters(text, options), {
    message: options.lines
      ? 'Must not contain control characters (other than line breaks) or text direction overrides'
      : 'Must not contain control characters, line breaks or text direction overrides',
    params: { rule: CONTROL_CHARACTERS_RULE },
    abort: true,
  });
}
