import { describe, expect, it } from 'vitest';
import { ProfilePatchSchema } from './profile.ts';
import { compareVersions, UpdateCheckQuerySchema } from './app-update.ts';

describe('profile patch', () => {
  it('takes any subset of the fields, upper-casing the airport and allowing it to be cleared', () => {
    expect(ProfilePatchSchema.parse({ homeAirport: 'zrh', locale: 'de-CH' })).toEqual({
      homeAirport: 'ZRH',
      locale: 'de-CH',
    });
    expect(ProfilePatchSchema.parse({ homeAirport: null })).toEqual({ homeAirport: null });
  });

  it('rejects an empty patch, a bad locale and an unknown currency', () => {
    expect(ProfilePatchSchema.safeParse({}).success).toBe(false);
    expect(ProfilePatchSchema.safeParse({ locale: 'not a locale!' }).success).toBe(false);
    expect(ProfilePatchSchema.safeParse({ currency: 'ZZZ' }).success).toBe(false);
  });
});

describe('update check', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0);
    expect(compareVersions('2.0.0', '2.0.0')).toBe(0);
    expect(compareVersions('0.9.0', '1.0.0')).toBeLessThan(0);
  });

  it('accepts only dotted numeric versions', () => {
    expect(UpdateCheckQuerySchema.safeParse({ currentVersion: '1.2' }).success).toBe(false);
    expect(UpdateCheckQuerySchema.parse({ currentVersion: '1.2.3' })).toEqual({ currentVersion: '1.2.3' });
  });
});
