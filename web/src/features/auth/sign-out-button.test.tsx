// @vitest-environment jsdom
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignOutButton } from './sign-out-button.tsx';
import { renderApp } from '../../test-support/render-app.tsx';
import { envelope, stubFetch } from '../../test-support/stub-fetch.ts';
import { cancelSignOut } from '../../lib/leave-ended-session.ts';

afterEach(() => {
  cleanup();
  cancelSignOut();
  vi.unstubAllGlobals();
});

/** What another tab of the browser hears, in order, with whether the logout had been answered by then. */
function listenAsAnotherTab(answered: () => boolean): Array<{ kind: string; logoutAnswered: boolean }> {
  const heard: Array<{ kind: string; logoutAnswered: boolean }> = [];
  const otherTab = new BroadcastChannel('wayfare:notifications');
  otherTab.onmessage = (event: MessageEvent<{ kind: string }>) =>
    heard.push({ kind: event.data.kind, logoutAnswered: answered() });
  onTestFinished(() => otherTab.close());
  return heard;
}

describe('SignOutButton', () => {
  it('tells the other tabs a sign-out began while the logout is still unanswered, and that it ended after', async () => {
    vi.stubGlobal('location', { ...window.location, assign: vi.fn() });
    const logoutHeld = Promise.withResolvers<void>();
    let answered = false;
    stubFetch(async () => {
      await logoutHeld.promise;
      answered = true;
      return { json: { redirectTo: '/' } };
    });
    const heard = listenAsAnotherTab(() => answered);
    renderApp(<SignOutButton />, { url: '/trips' });

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(heard.map((message) => message.kind)).toEqual(['signing-out']));
    expect(heard[0]?.logoutAnswered).toBe(false);
    logoutHeld.resolve();
    await waitFor(() => expect(heard.map((message) => message.kind)).toEqual(['signing-out', 'signed-out']));
    expect(heard[1]?.logoutAnswered).toBe(true);
  });

  it('tells the other tabs when the sign-out failed, so a later end of the session sends them to sign in', async () => {
    stubFetch(() => ({ status: 503, json: envelope('SERVICE_UNAVAILABLE', 'RETRY_LATER') }));
    const heard = listenAsAnotherTab(() => true);
    renderApp(<SignOutButton />, { url: '/trips' });

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(heard.map((message) => message.kind)).toEqual(['signing-out', 'sign-out-failed']),
    );
    await screen.findByRole('alert');
  });
});
