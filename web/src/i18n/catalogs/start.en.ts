/** English messages of the start page and signing in and out; ids start with "start.". Part of messages.en.ts. */
export const messages = {
  'start.homeTitle': 'Home',
  'start.welcomeTitle': 'Welcome',
  'start.welcomeBack': 'Welcome back, {name}',
  'start.shortcuts': 'Shortcuts',
  'start.journey.trips': 'Each trip as one timeline, with what a delay puts at risk.',
  'start.journey.flights': 'One-way, return or multi-city, sorted the way you decide.',
  'start.journey.stays': 'Hotels priced live, room by room, with clear cancellation terms.',
  'start.journey.bookings': 'Every trip you booked, business and personal, in one list.',
  'start.journey.inbox': 'Delays and gate changes the moment they happen.',
  'start.eyebrow': 'Business and personal travel, together',
  'start.title': 'Travel that keeps up with you',
  'start.lead':
    'Search flights and stays, keep every booking in one place, and hear about a delay before the departure board does.',
  'start.singleSignOn': 'Single sign-on with your Wayfare account.',
  'start.whatYouCanDo': 'What you can do',
  'start.signIn': 'Sign in',
  'start.signInProblem.expired': 'This sign-in expired or was already used. Sign in again.',
  'start.signInProblem.failed': 'Sign-in did not complete. Sign in again.',
  'start.signInProblem.unavailable': 'Sign-in is unavailable right now. Try again in a moment.',
  'start.signOut': 'Sign out',
  'start.signingOut': 'Signing out…',
} as const satisfies Record<string, string>;
