// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { beginSignOut, cancelSignOut, leaveEndedSession, otherTabSigningOut } from './leave-ended-session.ts';
import { privateCacheName } from './private-cache.ts';

describe('leaving an ended session', () => {
  const assign = vi.fn();

  afterEach(() => {
    cancelSignOut();
    otherTabSigningOut(false);
    vi.useRealTimers();
    assign.mockReset();
    vi.unstubAllGlobals();
  });

  function stubLocation(): void {
    vi.stubGlobal('location', { ...window.location, assign });
  }

  it('forgets the traveler’s saved answers, then navigates to the given page, when the session ends on its own', async () => {
    stubLocation();
    const names = new Set([privateCacheName('ana'), 'workbox-precache-v2']);
    vi.stubGlobal('caches', {
      keys: () => Promise.resolve([...names]),
      delete: (name: string) => Promise.resolve(names.delete(name)),
    });
    await leaveEndedSession('/auth/login?returnTo=%2Fbookings');
    expect([...names]).toEqual(['workbox-precache-v2']);
    expect(assign).toHaveBeenCalledWith('/auth/login?returnTo=%2Fbookings');
  });

  it('forgets the checkout under way and whatever else storage kept, keeping only the interface language', async () => {
    stubLocation();
    sessionStorage.setItem('wayfare:checkout:offer-1', JSON.stringify({ name: 'Ana', phone: '+34 600' }));
    sessionStorage.setItem('wayfare:checkout:offer-1:attempt', JSON.stringify(['card-1', 'key-1']));
    localStorage.setItem('wayfare:toasted', JSON.stringify(['n-1']));
    localStorage.setItem('wayfare:language', 'es');
    await leaveEndedSession('/');
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(1);
    expect(localStorage.getItem('wayfare:language')).toBe('es');
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('stays put while this tab signs out, so its own end-session redirect wins', async () => {
    stubLocation();
    beginSignOut();
    await leaveEndedSession('/');
    await leaveEndedSession('/auth/login');
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to the start page, not to sign-in, when the session ends while another tab signs out', async () => {
    stubLocation();
    otherTabSigningOut(true);
    await leaveEndedSession('/auth/login?returnTo=%2Fbookings');
    expect(assign).toHaveBeenLastCalledWith('/');

    otherTabSigningOut(false);
    await leaveEndedSession('/auth/login?returnTo=%2Fbookings');
    expect(assign).toHaveBeenLastCalledWith('/auth/login?returnTo=%2Fbookings');
  });

  it('counts another tab’s sign-out as under way for 30 s at most, should that tab close before it ends', async () => {
    stubLocation();
    vi.useFakeTimers({ toFake: ['Date'] });
    otherTabSigningOut(true);
    vi.advanceTimersByTime(29_000);
    await leaveEndedSession('/auth/login');
    expect(assign).toHaveBeenLastCalledWith('/');
    vi.advanceTimersByTime(1_000);
    await leaveEndedSession('/auth/login');
    expect(assign).toHaveBeenLastCalledWith('/auth/login');
  });

  it('navigates again once a failed sign-out is cancelled', async () => {
    stubLocation();
    beginSignOut();
    cancelSignOut();
    await leaveEndedSession('/');
    expect(assign).toHaveBeenCalledWith('/');
  });
});
