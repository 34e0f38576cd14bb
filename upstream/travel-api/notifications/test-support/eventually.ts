import { inject } from 'vitest';

/** Polls a condition every 10 ms until it holds; fails after timeoutMs (the suite's wait, vitest.config.ts). */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = inject('eventuallyMs'),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
