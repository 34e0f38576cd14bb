import { describe, expect, it } from 'vitest';
import { formattingLocale, languageOfLocale } from './languages.ts';

describe('languages', () => {
  it.each([
    ['es-ES', 'es'],
    ['es-MX', 'es'],
    ['es-419', 'es'],
    ['ES', 'es'],
    ['es-Latn-ES', 'es'],
    ['en-US', 'en'],
    ['de-DE', 'en'],
    ['ja-JP', 'en'],
    ['not a locale', 'en'],
    ['es_ES', 'en'],
    ['', 'en'],
    [undefined, 'en'],
  ] as const)('shows the interface for %s in %s', (locale, language) => {
    expect(languageOfLocale(locale)).toBe(language);
  });

  it('formats in the profile’s locale when it is the interface’s language, else in that language’s own', () => {
    expect(formattingLocale('es-ES', 'es')).toBe('es-ES');
    expect(formattingLocale('en-US', 'en')).toBe('en-US');
    // German profile, English interface: English dates, not German ones inside English words.
    expect(formattingLocale('de-DE', 'en')).toBe('en-GB');
    expect(formattingLocale('es-ES', 'en')).toBe('en-GB');
    expect(formattingLocale(undefined, 'es')).toBe('es-ES');
  });
});
