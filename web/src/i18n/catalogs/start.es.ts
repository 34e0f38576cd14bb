import type { messages as english } from './start.en.ts';

/** Spanish (Spain) messages of the start page and signing in and out: every id of start.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {};
