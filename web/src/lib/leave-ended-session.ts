import { forgetTraveler } from './forget-traveler.ts';

let signingOut = false;

/** How long another tab's sign-out stays under way at most, should that tab close before it finishes. */
const SIGN_OUT_ELSEWHERE_MS = 30_000;
let signOutElsewhereUntil = 0;

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
 * Another tab of this browser began signing out (true), or its sign-out failed (false). Its sign-out ends
 * the session under this tab too, and this tab may learn it from a 401 or its stream before that tab's
 * "signed out" arrives: a session that ends meanwhile was signed out, so this tab goes to the start page,
 * not to sign-in (which would find the identity session still open and sign the traveler straight back in).
 */
export function otherTabSigningOut(underWay: boolean): void {
  signOutElsewhereUntil = underWay ? Date.now() + SIGN_OUT_ELSEWHERE_MS : 0;
}

/**
 * Leaves a session that ended (for sign-in or the start page), unless this tab is signing out; what the
 * browser kept of the traveler is forgotten first (forgetTraveler). While another tab signs out, the
 * session ended by that sign-out: the start page, whatever the target.
 */
export function leaveEndedSession(target: string): Promise<void> {
  if (signingOut) return Promise.resolve();
  const destination = Date.now() < signOutElsewhereUntil ? '/' : target;
  return forgetTraveler().finally(() => window.location.assign(destination));
}
