import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import type { AppRouter } from '../../src/server/router';

type Received = { id: string; type: string; payload: any };

/** A real websocket tRPC client subscribed to a user's live events, as the browser does. */
export function liveClient(baseUrl: string, token: string | null) {
  const received: Received[] = [];
  const errors: unknown[] = [];
  let socket: WebSocket | undefined;
  // The client's socket, for a round trip on it (the latest one after a reconnect).
  class Captured extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      socket = this;
    }
  }
  const wsClient = createWSClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/live`,
    WebSocket: Captured as unknown as typeof globalThis.WebSocket,
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
    /**
     * Sends "PING" on the socket and resolves at the server's "PONG" (tRPC's ws adapter
     * answers it at once): a witness that every frame the server sent before it has been
     * received (frames on a socket arrive in order; the client handles each as it comes).
     */
    roundTrip(): Promise<void> {
      const ws = socket;
      if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('live socket not open'));
      return new Promise<void>((resolve, reject) => {
        const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
          if (isBinary || data.toString() !== 'PONG') return;
          ws.off('message', onMessage);
          ws.off('close', onClose);
          resolve();
        };
        const onClose = () => {
          ws.off('message', onMessage);
          reject(new Error('live socket closed before PONG'));
        };
        ws.on('message', onMessage);
        ws.on('close', onClose);
        ws.send('PING');
      });
    },
    async close() {
      sub.unsubscribe();
      await wsClient.close();
    },
  };
}
