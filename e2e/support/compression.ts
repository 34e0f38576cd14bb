import path from 'node:path';
import { expect, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { textAssets } from '../../scripts/precompress-plugin.ts';

/** The address of every text file of the built SPA (its index.html as `/`), as the stack serves it. */
export async function builtTextAddresses(): Promise<string[]> {
  const files = await textAssets(path.resolve('dist/web'));
  expect(files.length).toBeGreaterThan(0);
  return files.map((file) => (file === 'index.html' ? '/' : `/${file}`));
}

/**
 * Asks for each address as three browsers would: one accepting Brotli and gzip gets Brotli, one accepting
 * gzip only gets gzip, one accepting neither gets the file as it is; each answer says it varies by
 * Accept-Encoding and decodes to the same bytes. Reading a file changes nothing, so several addresses are
 * asked at a time (every one of them still is, in each of the three ways).
 */
export async function expectEachEncodedAsAccepted(
  request: APIRequestContext,
  addresses: readonly string[],
): Promise<void> {
  for (let start = 0; start < addresses.length; start += ADDRESSES_AT_ONCE) {
    await Promise.all(
      addresses
        .slice(start, start + ADDRESSES_AT_ONCE)
        .map((address) => expectEncodedAsAccepted(request, address)),
    );
  }
}

/** How many addresses `expectEachEncodedAsAccepted` asks at the same time. */
const ADDRESSES_AT_ONCE = 8;

async function expectEncodedAsAccepted(request: APIRequestContext, address: string): Promise<void> {
  const plain = await request.get(address, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.status(), address).toBe(200);
  expect(plain.headers()['content-encoding'], address).toBeUndefined();
  const bytes = await plain.body();
  for (const [accept, encoding] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ] as const) {
    const answer = await request.get(address, { headers: { 'accept-encoding': accept } });
    expect(answer.status(), `${address} (${accept})`).toBe(200);
    expect(answer.headers()['content-encoding'], `${address} (${accept})`).toBe(encoding);
    expect(answer.headers().vary, `${address} (${accept})`).toMatch(/accept-encoding/i);
    // Buffer.equals: a deep equality walks a Buffer index by index, about 2 s over the build.
    expect((await answer.body()).equals(bytes), `${address} (${accept}) decodes to the same bytes`).toBe(
      true,
    );
  }
}

/** The encoding of every script, style sheet and document of the app's origin the page receives from now on. */
export function recordTextEncodings(page: Page, origin: string): Map<string, string | undefined> {
  const seen = new Map<string, string | undefined>();
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    const type = response.request().resourceType();
    if (url.origin !== origin || !['document', 'script', 'stylesheet'].includes(type)) return;
    if (response.status() !== 200) return;
    seen.set(url.pathname, response.headers()['content-encoding']);
  });
  return seen;
}
