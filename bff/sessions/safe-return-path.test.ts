import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-return-path.ts';

/** One round of percent-decoding, as a lenient reader would apply it; malformed escapes stay as they are. */
function decodedOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

describe('safeReturnPath', () => {
  it('keeps local paths with their query and fragment', () => {
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/bookings?status=confirmed&offset=20')).toBe(
      '/bookings?status=confirmed&offset=20',
    );
    expect(safeReturnPath('/trips/1/segment/2#map')).toBe('/trips/1/segment/2#map');
    // A lone `%` in a fragment is not an escape; it stays on this site as it is.
    expect(safeReturnPath('/#%')).toBe('/#%');
  });

  it('refuses anything that could leave the site', () => {
    for (const candidate of [
      'https://evil.example',
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'evil.example/path',
      '/\r\nLocation: https://evil.example',
      '/\tpath',
      '',
      undefined,
      ['/'],
      `/${'a'.repeat(2048)}`,
      // Dot segments that resolve to a scheme-relative path (reported: the browser landed on evil.example).
      '/..//evil.example',
      '/.//evil.example',
      '/a/..//evil.example',
      '/%2e%2e//evil.example',
      '/%2E%2E//evil.example',
      '/%2F/evil.example',
      '/%2f%2fevil.example',
      '/%5cevil.example',
      '/%255c%255cevil.example',
      '/%252f%252fevil.example',
    ]) {
      expect(safeReturnPath(candidate), JSON.stringify(candidate)).toBeUndefined();
    }
  });

  it('never returns a path that resolves to another origin', () => {
    const piece = fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      '\\',
      '%2e',
      '%2E',
      '%2f',
      '%2F',
      '%5c',
      '%252e',
      '%252f',
      '%25',
      'a',
      'evil.example',
      '?',
      '#',
      ':',
      '@',
      'http:',
      '%0a',
      ' ',
    );
    const crafted = fc.array(piece, { maxLength: 12 }).map((parts) => `/${parts.join('')}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), crafted), (candidate) => {
        const result = safeReturnPath(candidate);
        if (result === undefined) return;
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(new URL(result, 'https://app.example').origin).toBe('https://app.example');
        // What the browser follows after one more decoding stays on the site too. A malformed escape
        // (a lone `%` in a query or fragment is allowed) cannot decode into anything else.
        expect(/^[/\\]{2}/.test(decodedOnce(result))).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });
});
