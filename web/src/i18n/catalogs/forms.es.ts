import type { messages as english } from './forms.en.ts';

/** Spanish (Spain) messages of the form parts every search shares (fields, the error summary, sorting, dates, combo boxes): every id of forms.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {};
