import type { QueryScalar, UpstreamQuery } from './travel-api.ts';

/** The query of a travel API call as sent (`?a=1&b=x&b=y`), without the parameters that are unset. */
export function queryString(query: UpstreamQuery | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const item of values) if (item !== undefined && item !== null) params.append(key, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
