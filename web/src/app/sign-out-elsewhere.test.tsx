// @vitest-environment jsdom
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { leaveEndedSession, otherTabSigningOut } from '../lib/leave-ended-session.ts';
import { useSignOutElsewhere } from './sign-out-elsewhere.ts';

afterEach(() => {
  cleanup();
  otherTabSigningOut(false);
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

/** Another tab of the same browser, posting on the notification channel. */
function anotherTab() {
  const channel = new BroadcastChannel('wayfare:notifications');
  onTestFinished(() => channel.close());
  return (message: { kind: string }) => channel.postMessage(message);
}

function Page({ signedIn }: { signedIn: boolean }) {
  useSignOutElsewhere(signedIn);
  return <p>A traveler’s page, its live notifications not started</p>;
}

function stubNavigation() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

describe('useSignOutElsewhere', () => {
  it('forgets the traveler and goes to the start page when another tab signed out', async () => {
    const assign = stubNavigation();
    sessionStorage.setItem('wayfare:checkout:offer-1', '{"name":"Test Traveler"}');
    render(<Page signedIn />);
    anotherTab()({ kind: 'signed-out' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(sessionStorage.getItem('wayfare:checkout:offer-1')).toBeNull();
  });

  it('counts a session ending while another tab signs out as signed out: the start page, not sign-in', async () => {
    const assign = stubNavigation();
    render(<Page signedIn />);
    const post = anotherTab();
    post({ kind: 'signing-out' });
    // Heard once a session that then ends leads to the start page.
    await waitFor(async () => {
      assign.mockClear();
      await leaveEndedSession('/auth/login?returnTo=%2Ftrips');
      expect(assign).toHaveBeenCalledWith('/');
    });
    post({ kind: 'sign-out-failed' });
    await waitFor(async () => {
      assign.mockClear();
      await leaveEndedSession('/auth/login?returnTo=%2Ftrips');
      expect(assign).toHaveBeenCalledWith('/auth/login?returnTo=%2Ftrips');
    });
  });

  it('does not listen on a signed-out page', () => {
    const opened = vi.fn();
    vi.stubGlobal(
      'BroadcastChannel',
      class extends BroadcastChannel {
        constructor(name: string) {
          super(name);
          opened(name);
        }
      },
    );
    render(<Page signedIn={false} />);
    expect(opened).not.toHaveBeenCalled();
    cleanup();
    render(<Page signedIn />);
    expect(opened).toHaveBeenCalledWith('wayfare:notifications');
  });
});
