/** English messages of flight search and its results; ids start with "flights.". Part of messages.en.ts. */
export const messages = {} as const satisfies Record<string, string>;
