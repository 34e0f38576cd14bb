import { expect, type Page } from '@playwright/test';

/** The button that opens the demo controls, in either language of the interface. */
export function demoControlsToggle(page: Page) {
  return page.getByRole('button', { name: /^(Demo controls|Controles de demostración)$/ });
}

/**
 * Waits until the demo controls have taken their place above the page. On every load of a signed-in page
 * they appear when the demo status answers, which can be after the page's own data, and push the page
 * down: a click aimed at the page before then can land on whatever was above its target.
 */
export async function demoControlsInPlace(page: Page): Promise<void> {
  await expect(demoControlsToggle(page)).toBeVisible();
}
