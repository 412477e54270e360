import type { Server } from 'node:http';
import { normalizeIp } from '../context';

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
    const ip = normalizeIp(socket.remoteAddress ?? '');
    const mine = open.get(ip) ?? 0;
    if (mine >= max) return void socket.destroy();
    open.set(ip, mine + 1);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  });
}
