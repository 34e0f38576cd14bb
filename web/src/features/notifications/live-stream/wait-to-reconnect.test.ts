// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitToReconnect } from './wait-to-reconnect.ts';

let online = true;

beforeEach(() => {
  vi.useFakeTimers();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Whether the promise has settled, checked after pending callbacks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('waitToReconnect', () => {
  it('waits the back-off delay while the browser is online', async () => {
    const waiting = waitToReconnect(2_000, new AbortController().signal);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('ends at once when the browser comes back online', async () => {
    const waiting = waitToReconnect(30_000, new AbortController().signal);
    window.dispatchEvent(new Event('online'));
    expect(await settled(waiting)).toBe(true);
  });

  it('while offline, waits for the online event however long the delay was', async () => {
    online = false;
    const waiting = waitToReconnect(1_000, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await settled(waiting)).toBe(false);
    online = true;
    window.dispatchEvent(new Event('online'));
    expect(await settled(waiting)).toBe(true);
  });

  it('ends when the signal aborts, or at once when it already has', async () => {
    const controller = new AbortController();
    const waiting = waitToReconnect(30_000, controller.signal);
    controller.abort();
    expect(await settled(waiting)).toBe(true);
    expect(await settled(waitToReconnect(30_000, controller.signal))).toBe(true);
  });
});
