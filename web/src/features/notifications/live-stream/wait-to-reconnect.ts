/**
 * The pause before the live connection tries again: `delayMs`, except that while the browser is
 * offline there is nothing to reach, so it waits for the `online` event instead, and coming back
 * online ends any pause at once. Ends early, too, when `signal` aborts.
 */
export function waitToReconnect(delayMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = navigator.onLine === false ? undefined : setTimeout(finish, delayMs);
    window.addEventListener('online', finish);
    signal.addEventListener('abort', finish);
    function finish() {
      clearTimeout(timer);
      window.removeEventListener('online', finish);
      signal.removeEventListener('abort', finish);
      resolve();
    }
  });
}
