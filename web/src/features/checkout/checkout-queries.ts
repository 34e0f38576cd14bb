import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  BookingDetailsSchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
  BookingDetails,
  CreateBookingRequest,
} from '#shared/api/booking-operations.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { BffError } from '../../lib/bff-error.ts';
import { bookingQueries } from '../bookings/booking-queries.ts';
import { tripQueries } from '../trips/trip-queries.ts';

/** A dropped connection during a submit is sent again, with the same key, this many times. */
const SUBMIT_ATTEMPTS = 3;
const RESUBMIT_DELAY_MS = 500;

export const checkoutQueries = {
  all: () => ['checkout'] as const,
  priceCheck: (offerId: string, run: number) =>
    queryOptions({
      queryKey: [...checkoutQueries.all(), 'price-check', offerId, run],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof PriceCheckSchema>>(`/api/offers/${encodeURIComponent(offerId)}/price-check`, {
          method: 'POST',
          signal,
        }),
      staleTime: Infinity,
      gcTime: 0,
      retry: false,
    }),
  paymentMethods: (bookingProfile: boolean) =>
    queryOptions({
      queryKey: [...checkoutQueries.all(), 'payment-methods', bookingProfile],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof PaymentMethodListSchema>>(
          `/api/payment-methods?bookingProfile=${bookingProfile}`,
          { signal },
        ),
      staleTime: 5 * 60_000,
    }),
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
    mutationFn: async ({ key, request }: { key: string; request: CreateBookingRequest }) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await apiJson<Answer<typeof BookingDetailsSchema>>('/api/bookings', {
            method: 'POST',
            body: request,
            headers: { 'Idempotency-Key': key },
          });
        } catch (error) {
          const dropped = error instanceof BffError && error.code === 'NETWORK_ERROR';
          if (!dropped || attempt >= SUBMIT_ATTEMPTS) throw error;
          await new Promise((resolve) => setTimeout(resolve, RESUBMIT_DELAY_MS * attempt));
        }
      }
    },
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
