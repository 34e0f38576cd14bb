import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  BookingDetailsSchema,
  BookingDetails,
  CreateBookingRequest,
} from '#shared/api/booking-operations.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { paymentMethodsQuery } from '../../lib/payment-methods-query.ts';
import { priceCheckQuery } from '../../lib/price-check-query.ts';
import { submitWithKey } from '../../lib/submit-with-key.ts';
import { bookingQueries } from '../bookings/booking-queries.ts';
import { tripQueries } from '../trips/trip-queries.ts';

export const checkoutQueries = {
  all: () => ['checkout'] as const,
  /** Keyed under all() (lib/price-check-query.ts). */
  priceCheck: priceCheckQuery,
  /** Keyed under all() (lib/payment-methods-query.ts). */
  paymentMethods: paymentMethodsQuery,
  booking: (bookingId: string) =>
    queryOptions({
      queryKey: [...bookingQueries.all(), 'details', bookingId],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof BookingDetailsSchema>>(`/api/bookings/${encodeURIComponent(bookingId)}`, {
          signal,
        }),
    }),
};

function refreshAfterBooking(queryClient: ReturnType<typeof useQueryClient>, booking: BookingDetails) {
  queryClient.setQueryData(checkoutQueries.booking(booking.bookingId).queryKey, booking);
  void queryClient.invalidateQueries({ queryKey: bookingQueries.all() });
  void queryClient.invalidateQueries({ queryKey: tripQueries.all() });
}

/** Books once per key: a connection dropped mid-submit is retried with the same key, never a new one. */
export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, request }: { key: string; request: CreateBookingRequest }) =>
      submitWithKey<Answer<typeof BookingDetailsSchema>>('/api/bookings', request, key),
    onSuccess: (booking) => refreshAfterBooking(queryClient, booking),
  });
}

export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bookingId: string) =>
      apiJson<Answer<typeof BookingDetailsSchema>>(`/api/bookings/${encodeURIComponent(bookingId)}/cancel`, {
        method: 'POST',
      }),
    onSuccess: (booking) => refreshAfterBooking(queryClient, booking),
  });
}
