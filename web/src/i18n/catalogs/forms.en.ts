/** English messages of the form parts every search shares (fields, the error summary, sorting, dates, combo boxes); ids start with "forms.". Part of messages.en.ts. */
export const messages = {} as const satisfies Record<string, string>;
