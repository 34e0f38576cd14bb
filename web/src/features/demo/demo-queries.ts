import { queryOptions } from '@tanstack/react-query';
import { DemoStatusSchema } from '#shared/api/demo.ts';
import { apiJson } from '../../lib/api-client.ts';

export const demoQueries = {
  all: () => ['demo'] as const,
  status: () =>
    queryOptions({
      queryKey: [...demoQueries.all(), 'status'],
      queryFn: ({ signal }) => apiJson('/api/demo/status', DemoStatusSchema, { signal }),
      staleTime: Infinity,
      retry: false,
    }),
};
