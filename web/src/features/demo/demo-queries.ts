import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '../../lib/api-client.ts';

export const DemoStatusSchema = z.looseObject({ enabled: z.boolean() });

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
