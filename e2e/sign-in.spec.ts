import { expect, submitIdentitySignIn, test } from './fixtures.ts';
import { expectInApp, expectOnIdentityPlatform } from './support/page-location.ts';
import { IDENTITY_ORIGIN } from './support/stack.ts';
import { PHONE } from './support/tags.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

test.describe('single sign-on', () => {
  test(
    'a traveler signs in with SSO from the start page and lands on home, greeted by name',
    { tag: PHONE },
    async ({ page, traveler }) => {
      await page.goto('/');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Travel that keeps up with you' }),
      ).toBeVisible();

      await page.getByRole('button', { name: 'Sign in', exact: true }).first().click();
      await expectOnIdentityPlatform(page);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await submitIdentitySignIn(page, traveler);

      await expectInApp(page, '/');
      const firstName = traveler.name.split(' ')[0];
      await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${firstName}` })).toBeVisible();
      await page.getByRole('button', { name: /account menu/ }).click();
      await expect(page.getByText(traveler.email)).toBeVisible();
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookings' }),
      ).toBeVisible();
    },
  );

  test('a sign-in that expired or was already used comes back to the start page, which says so, never to a JSON body', async ({
    page,
    traveler,
  }) => {
    // A tab that comes back from the identity platform after its sign-in was lost (a restarted session
    // store, a back button, a second tab that already used it).
    await page.goto('/auth/callback?code=used&state=lost');
    await expectInApp(page, '/?signIn=expired');
    await expect(page.getByRole('alert')).toHaveText(
      'This sign-in expired or was already used. Sign in again.',
    );
    await page.getByRole('button', { name: 'Sign in', exact: true }).first().click();
    await submitIdentitySignIn(page, traveler);
    await expectInApp(page, '/');
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  });

  test('a wrong password keeps the traveler on the sign-in page with the reason', async ({
    page,
    traveler,
  }) => {
    await page.goto('/auth/login?returnTo=/bookings');
    await page.getByLabel('Email').fill(traveler.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
    await submitIdentitySignIn(page, traveler);
    await expectInApp(page, '/bookings');
  });

  test(
    'a deep link opened signed out comes back to the same page after sign-in',
    { tag: PHONE },
    async ({ page, traveler }) => {
      await page.goto('/bookings?status=confirmed&vertical=flight');
      await expectOnIdentityPlatform(page);
      await submitIdentitySignIn(page, traveler);

      await expectInApp(page, '/bookings?status=confirmed&vertical=flight');
      await expect(page.getByRole('heading', { level: 1, name: 'Bookings' })).toBeVisible();
    },
  );

  test(
    'signing out ends both the app session and the identity session, asking nothing more',
    { tag: PHONE },
    async ({ page, signIn }) => {
      await signIn({ returnTo: '/bookings' });
      await page.getByRole('button', { name: /account menu/ }).click();
      const identityPages: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame() && new URL(frame.url()).origin === IDENTITY_ORIGIN)
          identityPages.push(new URL(frame.url()).pathname);
      });
      await page.getByRole('button', { name: 'Sign out' }).click();

      // The identity platform's end-session page confirms by itself: one click in the app signs out.
      await expectInApp(page, '/');
      expect(identityPages.length).toBeGreaterThan(0);
      await expect(page.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeVisible();
      const session = await page.request.get('/api/session');
      expect(await session.json()).toEqual({ authenticated: false });

      // The identity session ended too: coming back asks for the password again instead of single sign-on.
      await page.goto('/bookings');
      await expectOnIdentityPlatform(page);
      await expect(page.getByLabel('Password')).toBeVisible();
    },
  );
});
