import WebSocket from 'ws';
import { memory, serveParent, wallMs } from './ipc';

/**
 * Many websocket clients in one process (not the server's): they open, wait for their
 * first frame, then note when the frame they were told to wait for arrives. The tRPC
 * sockets speak the live channel's wire format as `@trpc/client`'s wsLink does
 * (connection params first, then one `events.live` subscription, PONG to PING);
 * its client objects cost more per socket than these benches should spend.
 */
type Sock = { ws: WebSocket; recvAt: number; bytes: number };
let socks: Sock[] = [];
let match: string | null = null;
let sample = '';
/** Sockets the server closed after they were subscribed, by close code. */
let closedAfterReady: Record<string, number> = {};

/**
 * Source address of socket `i`: 127.1.x.y with `perIp` sockets per address, so the
 * server's per-address socket cap (20) is not what the bench measures.
 */
function sourceAddress(i: number, perIp: number): string {
  const k = Math.floor(i / perIp);
  return `127.1.${Math.floor(k / 250)}.${(k % 250) + 1}`;
}

function openOne(i: number, o: OpenArgs): Promise<Sock> {
  return new Promise((resolve, reject) => {
    const trpc = o.tokens !== null;
    const ws = new WebSocket(trpc ? `${o.url}?connectionParams=1` : o.url, {
      localAddress: sourceAddress(i, o.perIp),
      perMessageDeflate: false,
    });
    const s: Sock = { ws, recvAt: NaN, bytes: 0 };
    let ready = false;
    const done = (err?: Error) => {
      if (ready) return;
      ready = true;
      if (err) reject(err);
      else resolve(s);
    };
    ws.on('open', () => {
      if (!trpc) return done();
      ws.send(JSON.stringify({ method: 'connectionParams', data: { token: o.tokens![i] } }));
      ws.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'events.live', input: undefined } }));
    });
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text === 'PING') return ws.send('PONG');
      if (!ready) {
        if (text.includes('"error"')) return done(new Error(`socket ${i}: ${text}`));
        if (text.includes('"type":"data"')) done();
        return;
      }
      if (match !== null && Number.isNaN(s.recvAt) && text.includes(match)) {
        s.recvAt = wallMs();
        s.bytes = data.length;
        sample ||= text;
      }
    });
    ws.on('error', (err) => done(err));
    ws.on('close', (code, reason) => {
      if (ready) closedAfterReady[code] = (closedAfterReady[code] ?? 0) + 1;
      done(new Error(`socket ${i} closed (${code} ${reason})`));
    });
  });
}

type OpenArgs = { url: string; n: number; tokens: string[] | null; perIp: number; concurrency: number };

serveParent(
  {
    /** Opens `n` sockets, `concurrency` handshakes at a time; resolves when each has its first frame (the sync frame for tRPC). */
    open: async (o: OpenArgs) => {
      const t0 = wallMs();
      const out: Sock[] = new Array(o.n);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < o.n; i = next++) out[i] = await openOne(i, o);
      };
      await Promise.all(Array.from({ length: o.concurrency }, worker));
      socks = out;
      return { openMs: wallMs() - t0 };
    },
    /** From now on, note the first frame on each socket that contains `text`. */
    arm: ({ text }: { text: string }) => {
      match = text;
      sample = '';
      for (const s of socks) [s.recvAt, s.bytes] = [NaN, 0];
      return true;
    },
    /** Waits until every socket has its frame (or `timeoutMs`), then returns the arrival times in socket order. */
    collect: async ({ timeoutMs }: { timeoutMs: number }) => {
      const until = Date.now() + timeoutMs;
      while (socks.some((s) => Number.isNaN(s.recvAt)) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      match = null;
      return { recvAt: socks.map((s) => (Number.isNaN(s.recvAt) ? null : s.recvAt)), sample, closed: closedAfterReady };
    },
    close: async () => {
      closedAfterReady = {};
      await Promise.all(
        socks.map(
          (s) =>
            new Promise<void>((r) => {
              if (s.ws.readyState === WebSocket.CLOSED) return r();
              s.ws.once('close', () => r());
              s.ws.close();
            }),
        ),
      );
      socks = [];
      return true;
    },
    memory: () => memory(),
  },
  () => {
    for (const s of socks) s.ws.terminate();
  },
);
