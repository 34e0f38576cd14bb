/** English messages of stay search, its results, a hotel's page and a shared stay; ids start with "stays.". Part of messages.en.ts. */
export const messages = {} as const satisfies Record<string, string>;
