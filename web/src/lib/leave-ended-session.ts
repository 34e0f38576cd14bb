import { forgetTraveler } from './forget-traveler.ts';

let signingOut = false;

/**
 * Marks this tab as signing out. The tab then follows the BFF to the identity platform's end-session
 * page itself; the "session ended" signals its own sign-out causes (the live stream's `session-ended`,
 * 401s from queries still in flight) must not send it elsewhere first, or the identity session would
 * outlive the BFF session and sign the traveler straight back in.
 */
export function beginSignOut(): void {
  signingOut = true;
}

/** Sign-out failed: ended-session signals navigate again. */
export function cancelSignOut(): void {
  signingOut = false;
}

/**
 * Leaves a session that ended (for sign-in or the start page), unless this tab is signing out; what the
 * browser kept of the traveler is forgotten first (forgetTraveler).
 */
export function leaveEndedSession(target: string): Promise<void> {
  if (signingOut) return Promise.resolve();
  return forgetTraveler().finally(() => window.location.assign(target));
}
