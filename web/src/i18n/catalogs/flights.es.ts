import type { messages as english } from './flights.en.ts';

/** Spanish (Spain) messages of flight search and its results: every id of flights.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {};
