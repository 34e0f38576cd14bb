import { queryOptions } from '@tanstack/react-query';
import type { PriceCheckSchema } from '#shared/api/booking-operations.ts';
import { apiJson, type Answer } from './api-client.ts';

/**
 * An offer's price now (checkout before it books, a trip's rebooking before it confirms): asked once per
 * `run`, never again on its own, never retried, forgotten when no screen shows it.
 */
export function priceCheckQuery(offerId: string, run: number) {
  return queryOptions({
    queryKey: ['checkout', 'price-check', offerId, run],
    queryFn: ({ signal }) =>
      apiJson<Answer<typeof PriceCheckSchema>>(`/api/offers/${encodeURIComponent(offerId)}/price-check`, {
        method: 'POST',
        signal,
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}
