import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** Open websockets one address may hold, and the process in all; beyond them an upgrade gets 429. */
export const MAX_SOCKETS_PER_IP = 20;
export const MAX_SOCKETS_TOTAL = 10_000;

/**
 * Counts open websocket connections per address before the upgrade is accepted, so
 * unauthenticated clients cannot hold unlimited sockets. A slot is taken before the
 * handshake and given back when the underlying socket closes, however it closes.
 */
export function socketGate(ipOf: (req: IncomingMessage) => string, limits = { perIp: MAX_SOCKETS_PER_IP, total: MAX_SOCKETS_TOTAL }) {
  const open = new Map<string, number>();
  let total = 0;
  return {
    get total() {
      return total;
    },
    /** True if the upgrade may go on; otherwise the socket has been answered 429 and closed. */
    admit(req: IncomingMessage, socket: Duplex): boolean {
      const ip = ipOf(req);
      const mine = open.get(ip) ?? 0;
      if (mine >= limits.perIp || total >= limits.total) {
        const why = mine >= limits.perIp ? 'Too many live connections from this address.' : 'Too many live connections. Please try again later.';
        socket.end(`HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nContent-Length: ${why.length}\r\nConnection: close\r\n\r\n${why}`);
        return false;
      }
      open.set(ip, mine + 1);
      total += 1;
      socket.once('close', () => {
        total -= 1;
        const left = (open.get(ip) ?? 1) - 1;
        if (left > 0) open.set(ip, left);
        else open.delete(ip);
      });
      return true;
    },
  };
}
