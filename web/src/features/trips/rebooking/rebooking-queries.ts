import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BookingDetailsSchema } from '#shared/api/booking-operations.ts';
import type { BookingsPageSchema } from '#shared/api/bookings.ts';
import type { RebookingRequest, RebookingSchema } from '#shared/api/rebooking.ts';
import type { Segment } from '#shared/api/trips.ts';
import { apiJson, type Answer } from '../../../lib/api-client.ts';
import { submitWithKey } from '../../../lib/submit-with-key.ts';
import { addDays } from '../../../lib/intl-format.ts';
import { bookingQueries } from '../../bookings/booking-queries.ts';
import { tripKeys } from '../trip-keys.ts';

export const rebookingQueries = {
  /** The booking a flight of a trip belongs to (by its reference), with what cancelling it gives. */
  legBooking: (leg: Segment) =>
    queryOptions({
      queryKey: [...bookingQueries.all(), 'of-segment', leg.segmentId, leg.bookingReference],
      queryFn: async ({ signal }) => {
        const day = leg.scheduledDeparture.slice(0, 10);
        const query = new URLSearchParams({
          vertical: 'flight',
          from: addDays(day, -1),
          to: day,
          limit: '100',
        });
        const page = await apiJson<Answer<typeof BookingsPageSchema>>(`/api/bookings?${query.toString()}`, {
          signal,
        });
        const listed = page.items.find((item) => item.reference === leg.bookingReference);
        if (!listed) return null;
        return apiJson<Answer<typeof BookingDetailsSchema>>(
          `/api/bookings/${encodeURIComponent(listed.bookingId)}`,
          { signal },
        );
      },
    }),
};

/**
 * The failures the review tells in its own words where the traveler confirmed (a declined card, a price
 * changed in the meantime), with nothing booked: the status above the timeline leaves them to it.
 */
export const REVIEW_TELLS: ReadonlySet<string> = new Set(['PAYMENT_DECLINED', 'PRICE_CHANGED']);

/** The mutations of one trip's rebookings, read back by the status line above its timeline. */
export const rebookingMutationKey = (tripId: string) => ['rebooking', tripId] as const;

export interface RebookingVariables {
  key: string;
  request: RebookingRequest;
  /** What the traveler chose, for the status line: the new flight's name. */
  flightName: string;
}

/** Rebooks once per key (submitWithKey): the status line above the timeline reads its outcome back. */
export function useRebook(tripId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: rebookingMutationKey(tripId),
    mutationFn: ({ key, request }: RebookingVariables) =>
      submitWithKey<Answer<typeof RebookingSchema>>('/api/rebookings', request, key),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: tripKeys.about(tripId) });
      void queryClient.invalidateQueries({ queryKey: bookingQueries.all() });
    },
  });
}
