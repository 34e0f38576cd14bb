/** What checks a message: a zod schema's safeParse. */
export interface MessageSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/**
 * A listener for messages from outside the page (other tabs, the service worker) that checks each with a
 * schema loaded when the first message arrives: a page that hears none, as a traveler with one tab does,
 * never loads the schema library. Messages are checked and handed on in the order they arrived; once the
 * schema is in, at once. Messages heard while it could not be loaded (offline, not cached) are dropped,
 * and the next message tries again.
 */
export function checkedOnArrival<Event, T>(
  loadSchema: () => Promise<MessageSchema<T>>,
  dataOf: (event: Event) => unknown,
  handle: (message: T, event: Event) => void,
): (event: Event) => void {
  let schema: MessageSchema<T> | undefined;
  let loading: Promise<void> | undefined;
  const waiting: Event[] = [];
  const check = (checker: MessageSchema<T>, event: Event) => {
    const checked = checker.safeParse(dataOf(event));
    if (checked.success) handle(checked.data, event);
  };
  return (event) => {
    if (schema && waiting.length === 0) {
      check(schema, event);
      return;
    }
    waiting.push(event);
    loading ??= loadSchema().then(
      (loaded) => {
        schema = loaded;
        for (const heard of waiting.splice(0)) check(loaded, heard);
      },
      () => {
        waiting.length = 0;
        loading = undefined;
      },
    );
  };
}
