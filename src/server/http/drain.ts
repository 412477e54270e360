import type { Server } from 'node:http';
import type { WebSocketServer } from 'ws';

/** How long requests under way get to finish once a stop begins. */
export const HTTP_DRAIN_MS = 5_000;
/** How long a live socket gets to answer our close frame before it is cut. */
export const WS_CLOSE_GRACE_MS = 1_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops taking connections at once and lets the requests under way finish: idle
 * keep-alive connections are closed as they become idle (a request that finishes
 * leaves its connection idle), and whatever is still open at the deadline is cut.
 * `server.close()` alone closes only the connections idle at that moment, and
 * `closeAllConnections()` right after it cut responses half-written.
 */
export async function drainHttp(server: Server, deadlineMs = HTTP_DRAIN_MS): Promise<void> {
  let closed = false;
  const done = new Promise<void>((resolve) => server.close(() => resolve())).then(() => void (closed = true));
  const end = Date.now() + deadlineMs;
  while (!closed && Date.now() < end) {
    server.closeIdleConnections();
    await Promise.race([done, sleep(25)]);
  }
  if (!closed) server.closeAllConnections();
  // Sockets the HTTP server no longer tracks (upgraded, or ended by us but held open by
  // the client) would hold the close callback: they go with the process.
  await Promise.race([done, sleep(250)]);
}

/**
 * Ends every live socket with 1012 (service restart) after the reconnect notice the
 * caller sent: a close frame goes out after what is queued, where terminate() dropped
 * the notice with the socket. Sockets that do not answer within the grace are cut.
 */
export async function closeLiveSockets(wss: WebSocketServer, graceMs = WS_CLOSE_GRACE_MS): Promise<void> {
  const sockets = [...wss.clients];
  for (const ws of sockets) ws.close(1012, 'server restarting');
  wss.close();
  const end = Date.now() + graceMs;
  while (sockets.some((ws) => ws.readyState !== ws.CLOSED) && Date.now() < end) await sleep(25);
  for (const ws of sockets) if (ws.readyState !== ws.CLOSED) ws.terminate();
}
