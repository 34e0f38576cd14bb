import { queryOptions } from '@tanstack/react-query';
import type { UpdateCheckSchema } from '#shared/api/app-update.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { APP_VERSION } from './app-version.ts';

const CHECK_EVERY_MS = 5 * 60_000;

export const updateCheckQueries = {
  all: () => ['update-check'] as const,
  current: () =>
    queryOptions({
      queryKey: [...updateCheckQueries.all(), APP_VERSION],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof UpdateCheckSchema>>(
          `/api/app/update-check?currentVersion=${encodeURIComponent(APP_VERSION)}`,
          {
            signal,
          },
        ),
      refetchInterval: CHECK_EVERY_MS,
      refetchIntervalInBackground: false,
      staleTime: CHECK_EVERY_MS,
      retry: false,
    }),
};
