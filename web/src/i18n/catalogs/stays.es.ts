import type { messages as english } from './stays.en.ts';

/** Spanish (Spain) messages of stay search, its results, a hotel's page and a shared stay: every id of stays.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {};
