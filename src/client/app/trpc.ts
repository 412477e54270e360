import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink, type TRPCClient } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../../server/router';

/**
 * The typed hooks: `trpc.coins.get_coins.useQuery()`, `trpc.auth.login.useMutation()`,
 * `trpc.useUtils()` for the cache. `trpc.Provider` (in auth.tsx) gives them the client.
 */
export const trpc = createTRPCReact<AppRouter>();

export type TrpcClient = TRPCClient<AppRouter>;

function liveUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/live`;
}

/**
 * One client per login state. The server builds a websocket connection's context
 * once, from the token in `connectionParams`, so a new token needs a new socket:
 * the caller makes a new client on login and logout and closes the old one.
 *
 * The socket is lazy: guests, who have no subscription, never open one. While the
 * live subscription is active, wsLink reconnects on its own (after a server restart
 * too) and resumes from the last tracked event id.
 */
export function createTrpcClient(token: string | null): { client: TrpcClient; close: () => void } {
  const ws = createWSClient({
    url: liveUrl,
    connectionParams: () => ({ token: token ?? '' }),
    lazy: { enabled: true, closeMs: 10_000 },
  });
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({ client: ws }),
        false: httpBatchLink({
          url: '/trpc',
          headers: () => (token ? { Authorization: `Bearer ${token}` } : {}),
        }),
      }),
    ],
  });
  return { client, close: () => void ws.close() };
}
