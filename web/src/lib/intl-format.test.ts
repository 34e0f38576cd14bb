import { describe, expect, it } from 'vitest';
import { zoneCity } from './intl-format.ts';

describe('zoneCity', () => {
  it('names the place a zone is named after, in words', () => {
    expect(zoneCity('Europe/Lisbon')).toBe('Lisbon');
    expect(zoneCity('America/New_York')).toBe('New York');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});
