import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Encoder } from '@trpc/server/adapters/ws';
import type { WebSocket } from 'ws';
import { addressKey } from '../guards/rate-limit';
import { noticeResponse } from './direct';

/** Open websockets one address may hold, and the process in all; beyond them an upgrade gets 429. */
export const MAX_SOCKETS_PER_IP = 20;
export const MAX_SOCKETS_TOTAL = 10_000;

/**
 * Counts open websocket connections per address before the upgrade is accepted, so
 * unauthenticated clients cannot hold unlimited sockets. A slot is taken before the
 * handshake and given back when the underlying socket closes, however it closes.
 * Addresses count as the rate limits count them (`addressKey`: an IPv6 /64 is one
 * client), or one IPv6 host could hold every slot with a new address per socket.
 */
export function socketGate(
  ipOf: (req: IncomingMessage) => string,
  limits = { perIp: MAX_SOCKETS_PER_IP, total: MAX_SOCKETS_TOTAL },
) {
  const open = new Map<string, number>();
  let total = 0;
  return {
    get total() {
      return total;
    },
    /** True if the upgrade may go on; otherwise the socket has been answered 429 and closed. */
    admit(req: IncomingMessage, socket: Duplex): boolean {
      const ip = addressKey(ipOf(req));
      const mine = open.get(ip) ?? 0;
      if (mine >= limits.perIp || total >= limits.total) {
        const why =
          mine >= limits.perIp
            ? 'Too many live connections from this address.'
            : 'Too many live connections. Please try again later.';
        socket.end(
          `HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nContent-Length: ${why.length}\r\nConnection: close\r\n\r\n${why}`,
        );
        return false;
      }
      open.set(ip, mine + 1);
      total += 1;
      // `on`, not `once` (a socket closes once): no wrapper kept for the socket's life.
      socket.on('close', () => {
        total -= 1;
        const left = (open.get(ip) ?? 1) - 1;
        if (left > 0) open.set(ip, left);
        else open.delete(ip);
      });
      return true;
    },
  };
}

/**
 * Whether a URL can be made of the upgrade's Host header, as tRPC's ws adapter makes one
 * (a missing header counts as localhost). It throws on a Host like `a:99999` inside the
 * 'upgrade' listener, where a throw ends the process: such a request is refused first.
 */
export function usableHost(host: string | undefined): boolean {
  try {
    new URL(`http://${host ?? 'localhost'}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a live connection keeps of its upgrade request, in its place: tRPC's ws adapter
 * holds the request it is handed for the socket's whole life, and an IncomingMessage
 * with its headers, raw headers, stream state and listeners is about 1 KiB (of some
 * 20 per subscription, docs/benchmarks.md). tRPC reads `url` and the Host header (for
 * `?connectionParams=1`), the live context the caller's address, X-Forwarded-For and
 * User-Agent; nothing else of the request is read after the upgrade.
 */
export function upgradeSummary(req: IncomingMessage): IncomingMessage {
  const headers: Record<string, string | string[]> = {};
  for (const name of ['host', 'user-agent', 'x-forwarded-for'] as const) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const summary = { url: req.url, headers, socket: { remoteAddress: req.socket.remoteAddress } };
  return summary as unknown as IncomingMessage;
}

/**
 * Messages one websocket frame may carry. The client sends what it has queued in one
 * frame: a tab holds one subscription, and a socket at most a few (live-limits.ts);
 * refusals past those are cheap, so this only bounds the work one frame can ask for.
 */
export const MAX_MESSAGES_PER_FRAME = 50;

/**
 * The live socket's wire decoder (JSON, as tRPC's own) that refuses, before anything
 * runs, a frame of more than MAX_MESSAGES_PER_FRAME messages. tRPC answers a refused
 * frame with a PARSE_ERROR carrying this message.
 */
export const liveEncoder: Encoder = {
  encode(data) {
    noticeResponse(data); // a live subscription learns its id (direct.ts)
    return JSON.stringify(data);
  },
  decode(data) {
    if (typeof data !== 'string') throw new Error('The live connection takes JSON text frames.');
    const msg: unknown = JSON.parse(data);
    if (Array.isArray(msg) && msg.length > MAX_MESSAGES_PER_FRAME)
      throw new Error(`A frame may hold at most ${MAX_MESSAGES_PER_FRAME} messages.`);
    return msg;
  },
};

/**
 * What one socket may send in ten seconds. The browser sends a few small frames (its
 * parameters, a subscription, keep-alive answers); bytes count too, as one frame may
 * carry up to 50 messages.
 */
export const LIVE_BUDGET = { frames: 60, bytes: 16 * 1024, windowMs: 10_000, idleMs: 10_000 };

/**
 * A live socket's idle watch: closed (4408) once it has held no accepted subscription for
 * `idleMs`. The browser opens its socket only to subscribe, at once, and keep-alive pings
 * would hold a socket that asks for nothing forever, using up the per-address and total
 * caps. Only a subscription the server accepted (signed in, within the account's slots)
 * counts: a refused one, a guest's, is no reason to stay. When a socket's last
 * subscription ends (a logout, the session revoked) the watch starts again.
 */
class IdleWatch {
  active = 0;
  timer: NodeJS.Timeout | undefined;
  constructor(
    readonly ws: WebSocket,
    readonly idleMs: number,
  ) {
    this.arm();
  }
  arm(): void {
    // Let go once cleared: a live socket would otherwise keep it for its whole life.
    this.timer = setTimeout(closeIdle, this.idleMs, this.ws);
  }
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
const closeIdle = (ws: WebSocket) => ws.close(4408, 'no subscription');
const watches = new WeakMap<WebSocket, IdleWatch>();

/** An accepted live subscription on `ws` (live/router.ts): the socket is in use. */
export function subscriptionStarted(ws: WebSocket | undefined): void {
  const w = ws && watches.get(ws);
  if (!w) return;
  w.active += 1;
  w.disarm();
}

/** That subscription ended: with none left, the socket has `idleMs` to subscribe again. */
export function subscriptionEnded(ws: WebSocket | undefined): void {
  const w = ws && watches.get(ws);
  if (!w) return;
  w.active = Math.max(0, w.active - 1);
  if (w.active === 0 && w.timer === undefined && w.ws.readyState === w.ws.OPEN) w.arm();
}

/**
 * Cuts off a socket that sends more than its budget. Each subscription message costs
 * a session lookup even when refused, and frames cost the sender nothing: ten sockets
 * sending 100,000 of them held the event loop for 14 s. Attached before the tRPC
 * handler; once over budget the socket's frames, even those already received, reach
 * no one. Starts the socket's idle watch too.
 */
export function frameBudget(ws: WebSocket, budget = LIVE_BUDGET) {
  let windowStart = Date.now();
  let frames = 0;
  let bytes = 0;
  const watch = new IdleWatch(ws, budget.idleMs);
  watches.set(ws, watch);
  ws.on('close', () => watch.disarm());
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const t = Date.now();
    if (t - windowStart >= budget.windowMs) [windowStart, frames, bytes] = [t, 0, 0];
    frames += 1;
    bytes += Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
    if (frames > budget.frames || bytes > budget.bytes) {
      ws.removeAllListeners('message');
      ws.terminate();
    }
  });
}
