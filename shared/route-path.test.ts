import { describe, expect, it } from 'vitest';
import { routePath } from './route-path.ts';

describe('routePath', () => {
  it('is the matched route’s pattern, whatever spelling reached it', () => {
    expect(routePath({ routeOptions: { url: '/api/guest-session' }, url: '/%61pi/guest-session' })).toBe(
      '/api/guest-session',
    );
  });
  it('is the decoded request path when no route matched or the route is a wildcard', () => {
    expect(routePath({ routeOptions: {}, url: '/%61dmin/faults?x=1' })).toBe('/admin/faults');
    expect(routePath({ routeOptions: { url: '/*' }, url: '/api%2Fbookings' })).toBe('/api/bookings');
  });
  it('keeps a path whose escaping is broken as it came', () => {
    expect(routePath({ routeOptions: {}, url: '/%E0%A4%A' })).toBe('/%E0%A4%A');
  });
});
