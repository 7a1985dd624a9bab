import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '#web/common/api-client.ts';

/**
 * The back office's cache of server state: a failed read is retried twice unless the server
 * refused it (a 4xx will not change by asking again); a tab's data is fresh each time it opens.
 */
export function createAdminQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
        staleTime: 0,
      },
      mutations: { retry: false },
    },
  });
}
