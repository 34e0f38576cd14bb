/**
 * The language of the words the travel API writes (titles, notification texts, a rate's descriptions):
 * English, whatever the traveler's (docs/decisions.md). Shown only where the app has no fields to put them
 * in words of its own, and marked with it.
 */
export const TRAVEL_API_LANGUAGE = 'en';
