/** English messages of live notifications, push, the demo controls and the error notices; ids start with "notices.". Part of messages.en.ts. */
export const messages = {} as const satisfies Record<string, string>;
