import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { memory, serveParent, wallMs } from './ipc';

/** The yardstick: a plain `ws` server with no tRPC, no database and no limits, in its own process. */
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const listening = new Promise<void>((r) => wss.once('listening', () => r()));

serveParent(
  {
    ready: async () => {
      await listening;
      return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/` };
    },
    memory: () => ({ ...memory(), subscribers: wss.clients.size }),
    /** The same text to every socket, one `send` each, as the hub's fan-out does. */
    broadcast: ({ text }: { text: string }) => {
      const sentAt = wallMs();
      for (const ws of wss.clients) ws.send(text);
      return { sentAt };
    },
  },
  () => {
    for (const ws of wss.clients) ws.terminate();
    return new Promise<void>((r) => wss.close(() => r()));
  },
);
