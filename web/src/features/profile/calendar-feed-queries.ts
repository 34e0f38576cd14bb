import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CalendarFeedAddressSchema,
  CalendarFeedStatusSchema,
  CalendarFeedAddress,
} from '#shared/api/calendar-feed.ts';
import { apiJson, apiSend, type Answer } from '../../lib/api-client.ts';

/** Whether the traveler's calendar feed is on (its address is never read back: only a hash of it is kept). */
export const calendarFeedQueries = {
  all: () => ['calendar-feed'] as const,
  status: () =>
    queryOptions({
      queryKey: [...calendarFeedQueries.all(), 'status'],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof CalendarFeedStatusSchema>>('/api/calendar-feed', { signal }),
    }),
};

/** A new feed address: turns the feed on, or rotates it (the earlier address stops working). */
export function useNewCalendarFeedAddress(onIssued: (address: CalendarFeedAddress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiJson<Answer<typeof CalendarFeedAddressSchema>>('/api/calendar-feed', { method: 'POST' }),
    onSuccess: (address) => {
      queryClient.setQueryData(calendarFeedQueries.status().queryKey, {
        enabled: true,
        createdAt: address.createdAt,
      });
      onIssued(address);
    },
  });
}

/** Turns the feed off: its address stops working. */
export function useTurnOffCalendarFeed(onTurnedOff: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('/api/calendar-feed', { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.setQueryData(calendarFeedQueries.status().queryKey, { enabled: false, createdAt: null });
      onTurnedOff();
    },
  });
}
