import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStatusSchema } from '#shared/api/session-status.ts';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';
import { APP_ORIGIN, type TestBrowser } from '../../test-support/sign-in-stack.ts';

const APP_HEADERS = { 'x-requested-with': 'wayfare', origin: APP_ORIGIN, 'sec-fetch-site': 'same-origin' };

let stack: GatewayStack;

beforeAll(async () => {
  stack = await startGatewayStack();
});

afterAll(async () => {
  await stack.close();
});

async function sessionLocale(browser: TestBrowser): Promise<string | undefined> {
  const status = SessionStatusSchema.parse(await (await browser.fetch('/api/session')).json());
  return status.authenticated && status.kind === 'traveler' ? status.traveler.locale : undefined;
}

describe('the session answer carries the profile’s locale, for the app’s first paint', () => {
  it('from sign-in, and follows the profile when it is saved', async () => {
    const browser = await stack.signIn('traveler901@wayfare.test', 'test-pass');
    // Before the app has read the profile: the locale was read at sign-in.
    const atSignIn = await sessionLocale(browser);
    const profile = ProfileSchema.parse(
      await (await browser.fetch('/api/profile', { headers: APP_HEADERS })).json(),
    );
    expect(atSignIn).toBe(profile.locale);

    const other = profile.locale === 'es-ES' ? 'en-GB' : 'es-ES';
    const saved = await browser.fetch('/api/profile', {
      method: 'PATCH',
      headers: { ...APP_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ locale: other }),
    });
    expect(saved.status).toBe(200);
    expect(await sessionLocale(browser)).toBe(other);
  });
});
