import type { Server } from 'node:http';
import { addressKey } from '../guards/rate-limit';
import { normalizeIp } from '../rpc/context';

/**
 * Open TCP connections one address may hold. A browser opens about six to a site;
 * without a cap one address holding 20,000 idle half-sent requests used up the
 * process's file descriptors and every new client was refused.
 */
export const MAX_CONNECTIONS_PER_IP = 256;

/**
 * Closes connections past the cap as they arrive, before any byte is read. Only for
 * direct clients: behind TRUST_PROXY every connection comes from the proxy, which
 * limits its clients itself.
 */
export function capConnectionsPerAddress(server: Server, max = MAX_CONNECTIONS_PER_IP) {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    // An IPv6 /64 is one client, as for the rate limits (addressKey).
    const ip = addressKey(normalizeIp(socket.remoteAddress ?? ''));
    const mine = open.get(ip) ?? 0;
    if (mine >= max) return void socket.destroy();
    open.set(ip, mine + 1);
    // `on`, not `once`: a socket closes once, and `once` adds a wrapper and its state to
    // every connection (a live socket keeps them for its whole life).
    socket.on('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  });
}

/**
 * How long a client may take to send a whole request (headers and body). Node's default
 * is five minutes, so a validator upload trickled at a byte a second held its connection
 * (and the 656 KiB buffer it fills) that long; our largest body is that upload, which a
 * slow line sends in a few seconds. The response's time does not count, nor do websockets.
 * Node checks open requests every CHECK_INTERVAL_MS.
 */
export const REQUEST_TIMEOUT_MS = 20_000;
export const HEADERS_TIMEOUT_MS = 10_000;
export const CHECK_INTERVAL_MS = 2_000;

export const requestTimeouts = {
  requestTimeout: REQUEST_TIMEOUT_MS,
  headersTimeout: HEADERS_TIMEOUT_MS,
  connectionsCheckingInterval: CHECK_INTERVAL_MS,
};
