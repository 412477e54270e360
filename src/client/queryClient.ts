import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorCode, isServerFault } from './errors';
import { tokenStore } from './storage';

/**
 * The one QueryClient. Two reactions apply to every call, so they live here:
 * - UNAUTHORIZED while a token is stored: the session ended on the server, forget it
 *   (guards then send the user to /login);
 * - SERVICE_UNAVAILABLE: maintenance began, so ask `system.status` again and let the
 *   app switch to the maintenance screen.
 */
export function createQueryClient(): QueryClient {
  const onError = (err: unknown) => {
    const code = errorCode(err);
    if (code === 'UNAUTHORIZED' && tokenStore.get() !== null) tokenStore.clear();
    if (code === 'SERVICE_UNAVAILABLE') void client.invalidateQueries({ queryKey: [['system', 'status']] });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Retrying a 4xx cannot help; a dropped connection or a 5xx might.
        retry: (failures, err) => failures < 2 && isServerFault(err),
      },
    },
  });

  // A new token means a new user (or none): drop everything but the maintenance flag.
  tokenStore.subscribe(() => {
    client.removeQueries({ predicate: (q) => JSON.stringify(q.queryKey[0]) !== '["system","status"]' });
  });
  return client;
}
