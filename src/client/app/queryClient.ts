import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorCode } from './errors';
import { queryRetryDelay, shouldRetryQuery } from './retry';
import { tokenStore } from './storage';

/**
 * The one QueryClient. Two reactions apply to every call, so they live here:
 * - UNAUTHORIZED while a token is stored: the session ended on the server, forget it
 *   (guards then send the user to /login);
 * - SERVICE_UNAVAILABLE: maintenance began, so ask `system.status` again and let the
 *   app switch to the maintenance screen.
 */
/** tRPC query keys start with the procedure path: [['system', 'status'], {...}]. */
function isStatusQuery(key: readonly unknown[]): boolean {
  const path = key[0];
  return Array.isArray(path) && path[0] === 'system' && path[1] === 'status';
}

export function createQueryClient(): QueryClient {
  const onError = (err: unknown) => {
    const code = errorCode(err);
    if (code === 'UNAUTHORIZED' && tokenStore.get() !== null) tokenStore.clear();
    if (code === 'SERVICE_UNAVAILABLE') void client.invalidateQueries({ predicate: (q) => isStatusQuery(q.queryKey) });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
    },
  });

  // A new token means a new user (or none): drop everything but the maintenance flag.
  tokenStore.subscribe(() => {
    client.removeQueries({ predicate: (q) => !isStatusQuery(q.queryKey) });
  });
  return client;
}
