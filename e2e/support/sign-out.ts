import { expect, type Page } from '@playwright/test';
import { expectInApp } from './page-location.ts';

/** Signs out from the account menu (the identity platform confirms by itself); lands on the start page. */
export async function signOutThroughMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expectInApp(page, '/');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeVisible();
}
