import type { Locator } from '@playwright/test';
import { expect } from '@playwright/test';

/**
 * Expects the whole of an element on the page's first screen: where it sits from the top of the
 * document, so the answer is the same whether or not something scrolled the page since it loaded.
 */
export async function expectOnFirstScreen(element: Locator): Promise<void> {
  const place = await element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    return { bottom: box.bottom + window.scrollY, screen: window.innerHeight, height: box.height };
  });
  expect(place.height, 'the element is laid out').toBeGreaterThan(0);
  expect(place.bottom, 'the element ends within the first screen').toBeLessThanOrEqual(place.screen);
}
