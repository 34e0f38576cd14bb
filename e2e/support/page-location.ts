import { expect, type Page } from '@playwright/test';
import { APP_ORIGIN, IDENTITY_ORIGIN } from './stack.ts';

/**
 * Where a page is after a chain of redirects across origins (the app, the BFF, the identity platform and
 * back), read from its document and polled until it matches. Playwright's own record of a page's URL
 * (`page.url()`, which `toHaveURL` reads) once stayed on the page before such a chain for 15 s while the
 * next page was on screen; a check of the way back could then also pass without the page ever returning.
 * Same-origin moves within the app (a filter, a link) keep `toHaveURL`.
 */
async function documentLocation(page: Page): Promise<{ origin: string; path: string } | undefined> {
  // Between two documents there is none to ask: undefined, and the poll asks again.
  return page
    .evaluate(() => ({ origin: location.origin, path: location.pathname + location.search }))
    .catch(() => undefined);
}

/** The page is the identity platform's (its sign-in or end-session page). */
export async function expectOnIdentityPlatform(page: Page): Promise<void> {
  await expect
    .poll(async () => (await documentLocation(page))?.origin, {
      message: 'the page is the identity platform',
    })
    .toBe(IDENTITY_ORIGIN);
}

/** The page is at `origin` and `path` (path and query, exactly as a string, or matching a pattern). */
export async function expectPageAt(page: Page, origin: string, path: string | RegExp): Promise<void> {
  await expect
    .poll(async () => documentLocation(page), { message: `the page is ${origin} ${String(path)}` })
    .toEqual({ origin, path: typeof path === 'string' ? path : expect.stringMatching(path) });
}

/** The page is the app's (the journeys' stack), at `path`. */
export async function expectInApp(page: Page, path: string | RegExp): Promise<void> {
  await expectPageAt(page, APP_ORIGIN, path);
}

/** A path pattern: `pathname` with any query or none. */
export function withAnyQuery(pathname: string): RegExp {
  return new RegExp(`^${pathname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?.*)?$`);
}
