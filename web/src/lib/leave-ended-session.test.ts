// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { beginSignOut, cancelSignOut, leaveEndedSession } from './leave-ended-session.ts';

describe('leaving an ended session', () => {
  const assign = vi.fn();

  afterEach(() => {
    cancelSignOut();
    assign.mockReset();
    vi.unstubAllGlobals();
  });

  function stubLocation(): void {
    vi.stubGlobal('location', { ...window.location, assign });
  }

  it('navigates to the given page when the session ends on its own', () => {
    stubLocation();
    leaveEndedSession('/auth/login?returnTo=%2Fbookings');
    expect(assign).toHaveBeenCalledWith('/auth/login?returnTo=%2Fbookings');
  });

  it('stays put while this tab signs out, so its own end-session redirect wins', () => {
    stubLocation();
    beginSignOut();
    leaveEndedSession('/');
    leaveEndedSession('/auth/login');
    expect(assign).not.toHaveBeenCalled();
  });

  it('navigates again once a failed sign-out is cancelled', () => {
    stubLocation();
    beginSignOut();
    cancelSignOut();
    leaveEndedSession('/');
    expect(assign).toHaveBeenCalledWith('/');
  });
});
