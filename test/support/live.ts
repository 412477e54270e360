import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import type { AppRouter } from '../../src/server/router';

type Received = { id: string; type: string; payload: any };

/** A real websocket tRPC client subscribed to a user's live events, as the browser does. */
export function liveClient(baseUrl: string, token: string | null) {
  const received: Received[] = [];
  const errors: unknown[] = [];
  const wsClient = createWSClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/live`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: () => (token ? { token } : {}),
    retryDelayMs: () => 100,
  });
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
  const sub = client.events.live.subscribe(undefined, {
    onData: (e) => received.push({ id: e.id, type: e.data.type, payload: e.data.payload }),
    onError: (err) => errors.push(err),
  });
  return {
    received,
    errors,
    types: () => received.map((r) => r.type),
    async close() {
      sub.unsubscribe();
      await wsClient.close();
    },
  };
}
