import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-return-path.ts';

describe('safeReturnPath', () => {
  it('keeps local paths with their query and fragment', () => {
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/bookings?status=confirmed&offset=20')).toBe(
      '/bookings?status=confirmed&offset=20',
    );
    expect(safeReturnPath('/trips/1/segment/2#map')).toBe('/trips/1/segment/2#map');
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
    ]) {
      expect(safeReturnPath(candidate), JSON.stringify(candidate)).toBeUndefined();
    }
  });

  it('never returns a path that resolves to another origin', () => {
    fc.assert(
      fc.property(fc.string(), (candidate) => {
        const result = safeReturnPath(candidate);
        if (result === undefined) return;
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(new URL(result, 'https://app.example').origin).toBe('https://app.example');
      }),
      { numRuns: 2000 },
    );
  });
});
