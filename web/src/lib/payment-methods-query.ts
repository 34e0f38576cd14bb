import { queryOptions } from '@tanstack/react-query';
import type { PaymentMethodListSchema } from '#shared/api/booking-operations.ts';
import { apiJson, type Answer } from './api-client.ts';

/** The cards on file for a kind of travel (business or personal): checkout's and a rebooking's to pay with. */
export function paymentMethodsQuery(bookingProfile: boolean) {
  return queryOptions({
    queryKey: ['checkout', 'payment-methods', bookingProfile],
    queryFn: ({ signal }) =>
      apiJson<Answer<typeof PaymentMethodListSchema>>(
        `/api/payment-methods?bookingProfile=${bookingProfile}`,
        {
          signal,
        },
      ),
    staleTime: 5 * 60_000,
  });
}
