/** English messages of the start page and signing in and out; ids start with "start.". Part of messages.en.ts. */
export const messages = {} as const satisfies Record<string, string>;
