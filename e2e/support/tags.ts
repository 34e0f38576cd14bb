/** Journeys that must also work on a phone (390x844) carry this tag; the phone project runs only them. */
export const PHONE = '@phone';
