import { TEST_ADMIN_TOKEN } from '../../test-support/start-travel-api.ts';

/** One call of the travel API's admin API (unsigned, admin bearer token), with an optional JSON body. */
export function adminFetch(
  baseUrl: string,
  method: string,
  path: string,
  json?: unknown,
  token = TEST_ADMIN_TOKEN,
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}
