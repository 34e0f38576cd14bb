import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { BookingsPageSchema } from '#shared/api/bookings.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { bookingsQuery, type BookingListFilters } from './booking-filters.ts';

export const bookingQueries = {
  all: () => ['bookings'] as const,
  page: (filters: BookingListFilters) =>
    queryOptions({
      queryKey: [...bookingQueries.all(), 'page', filters],
      queryFn: ({ signal, queryKey }) =>
        apiJson<Answer<typeof BookingsPageSchema>>(`/api/bookings?${bookingsQuery(filters).toString()}`, {
          signal,
          updatedAtOf: queryKey,
        }),
      placeholderData: keepPreviousData,
    }),
};
