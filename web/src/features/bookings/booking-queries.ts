import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { BookingsPageSchema } from '#shared/api/bookings.ts';
import { apiJson } from '../../lib/api-client.ts';
import { bookingsQuery, type BookingListFilters } from './booking-filters.ts';

export const bookingQueries = {
  all: () => ['bookings'] as const,
  page: (filters: BookingListFilters) =>
    queryOptions({
      queryKey: [...bookingQueries.all(), 'page', filters],
      queryFn: ({ signal }) =>
        apiJson(`/api/bookings?${bookingsQuery(filters).toString()}`, BookingsPageSchema, {
          signal,
        }),
      placeholderData: keepPreviousData,
    }),
};
