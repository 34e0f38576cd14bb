import type { messages as english } from './checkout.en.ts';

/** Spanish (Spain) messages of checkout and the booking it makes: every id of checkout.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {};
