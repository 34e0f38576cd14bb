import type { TestBrowser } from './sign-in-stack.ts';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  json: unknown;
}

/** A JSON call to the BFF as the SPA makes it: the anti-forgery header, a JSON body, the answer parsed. */
export async function api(
  browser: TestBrowser,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const response = await browser.fetch(path, {
    method,
    headers: {
      'x-requested-with': 'wayfare',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text === '' ? undefined : JSON.parse(text),
  };
}
