/** English messages of checkout and the booking it makes; ids start with "checkout.". Part of messages.en.ts. */
export const messages = {} as const satisfies Record<string, string>;
