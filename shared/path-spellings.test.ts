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

  it('encodes the first character of each segment in upper and lower hex', () => {
    expect(encodedSpellings('/api/feed')).toEqual(['/%61pi/feed', '/api/%66eed']);
    expect(encodedSpellings('/v1/me')).toEqual(['/%761/me', '/v1/%6De', '/v1/%6de']);
  });
});
