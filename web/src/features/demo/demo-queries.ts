import { queryOptions } from '@tanstack/react-query';
import type { DemoStatusSchema } from '#shared/api/demo.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';

export const demoQueries = {
  all: () => ['demo'] as const,
  status: () =>
    queryOptions({
      queryKey: [...demoQueries.all(), 'status'],
      queryFn: ({ signal }) => apiJson<Answer<typeof DemoStatusSchema>>('/api/demo/status', { signal }),
      staleTime: Infinity,
      retry: false,
    }),
};
