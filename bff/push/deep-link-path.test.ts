import { describe, expect, it } from 'vitest';
import { deepLinkPath } from './deep-link-path.ts';

describe('deepLinkPath', () => {
  it('maps an app deep link to the in-app segment path', () => {
    expect(deepLinkPath('wayfare://trips/t-1/segment/s-2')).toBe('/trips/t-1/segment/s-2');
  });

  it('opens the start page for anything that is not a trip segment link', () => {
    expect(deepLinkPath('https://evil.example/trips/a/segment/b')).toBe('/');
    expect(deepLinkPath('wayfare://bookings/1')).toBe('/');
    expect(deepLinkPath('wayfare://trips/%E0/segment/x')).toBe('/');
    expect(deepLinkPath('wayfare://trips/../segment/x/../../x')).toBe('/');
    expect(deepLinkPath('wayfare://trips/../segment/x')).toBe('/');
  });
});
