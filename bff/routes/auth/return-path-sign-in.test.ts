import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, startSignInStack, type SignInStack } from '../../test-support/sign-in-stack.ts';

/**
 * The return path judged end to end: whatever `returnTo` the sign-in accepts, the callback's Location
 * resolves to the app's own origin, and the browser lands there.
 */

let stack: SignInStack;

beforeAll(async () => {
  stack = await startSignInStack();
}, 30_000);
afterAll(async () => {
  await stack.close();
});

/** The spellings reported to land on evil.example after sign-in, as the browser's query decodes them. */
const REPORTED = ['/..//evil.example', '/.//evil.example', '/a/..//evil.example', '/%2e%2e//evil.example'];

const piece = fc.constantFrom(
  '/',
  '//',
  '.',
  '..',
  '\\',
  '%2e',
  '%2f',
  '%2F',
  '%5c',
  '%252e',
  '%252f',
  'a',
  'evil.example',
  '?',
  '#',
  ':',
  '@',
  'http:',
);
const candidate = fc.oneof(
  fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => `/${parts.join('')}`),
  fc.string({ maxLength: 24 }),
);

async function callbackLocationFor(returnTo: string): Promise<{ location: string; landed: string } | null> {
  const asked = await stack.browser().fetch(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  await asked.arrayBuffer();
  if (asked.status === 422) return null;
  expect(asked.status, returnTo).toBe(303);
  const { chain, url } = await stack.signIn({ returnTo });
  // The callback's answer is the last redirect of the chain: it sends the browser to the return path.
  const location = chain.findLast((response) => response.headers.has('location'))?.headers.get('location');
  expect(location, returnTo).toBeTruthy();
  return { location: location ?? '', landed: url };
}

describe('return path after sign-in', () => {
  it('the callback sends the browser to the app’s own origin for any return path the sign-in accepts', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(candidate, async (returnTo) => {
        const answer = await callbackLocationFor(returnTo);
        if (answer === null) return;
        accepted += 1;
        expect(new URL(answer.location, APP_ORIGIN).origin, returnTo).toBe(APP_ORIGIN);
        expect(new URL(answer.landed).origin, returnTo).toBe(APP_ORIGIN);
      }),
      { numRuns: 40, examples: REPORTED.map((returnTo) => [returnTo]) },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 60_000);

  it('refuses each reported spelling at the start of the sign-in', async () => {
    for (const returnTo of REPORTED) expect(await callbackLocationFor(returnTo), returnTo).toBeNull();
  });
});
