import { expect, test } from './fixtures.ts';
import {
  builtTextAddresses,
  expectEachEncodedAsAccepted,
  recordTextEncodings,
} from './support/compression.ts';
import { APP_ORIGIN } from './support/stack.ts';

test('every text file of the build comes as Brotli, gzip or as it is, as the browser accepts', async ({
  request,
}) => {
  await expectEachEncodedAsAccepted(request, await builtTextAddresses());
});

test('a signed-in visit gets its pages, scripts and styles compressed and its notification stream as it is', async ({
  page,
  signIn,
}) => {
  const encodings = recordTextEncodings(page, APP_ORIGIN);
  await signIn();
  const stream = page.waitForResponse((response) => response.url().includes('/api/notifications/stream?'));
  await page.goto('/inbox');
  // The stream's first events reached the page while it stays open: nothing held them back.
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  const streamHeaders = (await stream).headers();
  expect(streamHeaders['content-type']).toMatch(/^text\/event-stream/);
  expect(streamHeaders['content-encoding']).toBeUndefined();
  expect([...encodings.keys()]).toEqual(expect.arrayContaining(['/', '/inbox']));
  for (const [pathname, encoding] of encodings) expect(encoding, pathname).toMatch(/^(br|gzip)$/);
});
