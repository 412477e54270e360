import {
  createTRPCClient,
  httpBatchLink,
  splitLink,
  TRPCClientError,
  type TRPCClient,
  type TRPCLink,
} from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
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
  const live = lazyWsLink(token);
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: live.link,
        false: httpBatchLink({
          url: '/trpc',
          // The server refuses batches of more than 20 calls (MAX_BATCH_CALLS).
          maxItems: 20,
          headers: () => (token ? { Authorization: `Bearer ${token}` } : {}),
        }),
      }),
    ],
  });
  return { client, close: live.close };
}

/**
 * wsLink, fetched with its websocket client on the first subscription: a visitor, who
 * never subscribes, does not download it (it would put the first load over its budget).
 */
function lazyWsLink(token: string | null): { link: TRPCLink<AppRouter>; close: () => void } {
  type Loaded = { ws: { close: () => unknown }; link: ReturnType<TRPCLink<AppRouter>> };
  let loaded: Promise<Loaded> | null = null;
  let closed = false;
  const link: TRPCLink<AppRouter> = (runtime) => (props) =>
    observable((observer) => {
      let sub: Unsubscribable | null = null;
      let done = false;
      loaded ??= import('@trpc/client/links/wsLink/wsLink').then((m) => {
        const ws = m.createWSClient({
          url: liveUrl,
          connectionParams: () => ({ token: token ?? '' }),
          lazy: { enabled: true, closeMs: 10_000 },
        });
        return { ws, link: m.wsLink<AppRouter>({ client: ws })(runtime) };
      });
      loaded.then(
        (l) => {
          if (done || closed) return;
          sub = l.link(props).subscribe(observer);
        },
        (err: unknown) => {
          loaded = null; // a later subscription tries the fetch again
          if (!done) observer.error(TRPCClientError.from(err instanceof Error ? err : new Error(String(err))));
        },
      );
      return () => {
        done = true;
        sub?.unsubscribe();
      };
    });
  return {
    link,
    close: () => {
      closed = true;
      void loaded?.then((l) => l.ws.close());
    },
  };
}
