import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { checkedOnArrival, type MessageSchema } from './checked-on-arrival.ts';

const Message = z.object({ n: z.number() });
type Message = z.infer<typeof Message>;

/** A schema load the test finishes (or fails) when it says. */
function loadWhenTold() {
  const loads: { resolve: (schema: MessageSchema<Message>) => void; reject: (error: Error) => void }[] = [];
  const load = vi.fn(
    () => new Promise<MessageSchema<Message>>((resolve, reject) => loads.push({ resolve, reject })),
  );
  return { load, loads };
}

/** A listener over that load, and what it handed on. */
function listening() {
  const { load, loads } = loadWhenTold();
  const heard: number[] = [];
  const deliver = checkedOnArrival(
    load,
    (data: unknown) => data,
    (message) => heard.push(message.n),
  );
  return { load, loads, heard, deliver };
}

describe('checkedOnArrival', () => {
  it('loads the schema with the first message, then hands on every valid message in the order heard', async () => {
    const { load, loads, heard, deliver } = listening();
    expect(load).not.toHaveBeenCalled();

    deliver({ n: 1 });
    deliver({ n: 'two' });
    deliver({ n: 3 });
    expect(load).toHaveBeenCalledTimes(1);
    expect(heard).toEqual([]);
    loads[0]!.resolve(Message);
    await vi.waitFor(() => expect(heard).toEqual([1, 3]));

    // Once the schema is in, a message is checked and handed on at once.
    deliver({ n: 4 });
    expect(heard).toEqual([1, 3, 4]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('drops what it heard while the schema could not load, and tries again with the next message', async () => {
    const { load, loads, heard, deliver } = listening();
    deliver({ n: 1 });
    loads[0]!.reject(new Error('Failed to fetch dynamically imported module'));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 0));

    deliver({ n: 2 });
    expect(load).toHaveBeenCalledTimes(2);
    loads[1]!.resolve(Message);
    await vi.waitFor(() => expect(heard).toEqual([2]));
  });
});
