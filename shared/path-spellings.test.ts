import { describe, expect, it } from 'vitest';
import { concretePath, encodedSpellings } from './path-spellings.ts';

describe('path spellings', () => {
  it('fills route parameters', () => {
    expect(concretePath('/api/trips/:tripId/segments/:segmentId')).toMatch(
      /^\/api\/trips\/[0-9a-f-]{36}\/segments\/[0-9a-f-]{36}$/,
    );
    expect(concretePath('/api/docs/*')).toBe('/api/docs/x');
    expect(concretePath('/v1/things/:slug')).toBe('/v1/things/x');
  });

  it('encodes each character of each segment in upper and lower hex', () => {
    expect(encodedSpellings('/api/feed')).toEqual([
      '/%61pi/feed',
      '/a%70i/feed',
      '/ap%69/feed',
      '/api/%66eed',
      '/api/f%65ed',
      '/api/fe%65d',
      '/api/fee%64',
    ]);
    expect(encodedSpellings('/v1/me')).toEqual(['/%761/me', '/v%31/me', '/v1/%6De', '/v1/%6de', '/v1/m%65']);
  });

  it('encodes only the first character of a route parameter’s sample id', () => {
    const path = concretePath('/v1/trips/:tripId');
    const idSpellings = encodedSpellings(path).filter((spelled) => spelled.startsWith('/v1/trips/%'));
    expect(idSpellings).toEqual([`/v1/trips/%33${path.slice('/v1/trips/3'.length)}`]);
  });
});
