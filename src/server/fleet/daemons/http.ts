import http from 'node:http';
import type { RpcEndpoint } from '../engine';

/** A daemon did not answer in a usable way: unreachable, timed out, or replied garbage. */
export class DaemonError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'timeout' | 'bad-reply' | 'rpc-error',
  ) {
    super(message);
  }
}

// Keep-alive for the simulator, which serves thousands of nodes on one port. Real
// daemons get a connection per call: bitcoind-family daemons wait for idle keep-alive
// connections to close before they shut down, so a kept socket delays every stop.
const simulatorAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const oneShot = new http.Agent({ keepAlive: false });

export type Auth = { user: string; password: string };

/** One HTTP request to a daemon with a hard deadline; the body is parsed as JSON. */
export function daemonRequest(
  ep: RpcEndpoint,
  opts: {
    method: 'GET' | 'POST';
    path: string;
    body?: unknown;
    auth?: Auth;
    /** Bearer token (a validator client's Keymanager API). */ bearer?: string;
    timeoutMs: number;
  },
): Promise<{ status: number; json: unknown }> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (opts.auth)
      headers.authorization = `Basic ${Buffer.from(`${opts.auth.user}:${opts.auth.password}`).toString('base64')}`;
    else if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
    const agent = ep.path ? simulatorAgent : oneShot;
    const req = http.request(
      { host: ep.host, port: ep.port, path: `${ep.path ?? ''}${opts.path}`, method: opts.method, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 4 * 1024 * 1024) req.destroy(new DaemonError('reply larger than 4 MiB', 'bad-reply'));
          else chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null });
          } catch {
            reject(new DaemonError(`reply is not JSON (HTTP ${res.statusCode}): ${text.slice(0, 80)}`, 'bad-reply'));
          }
        });
        res.on('error', (err) => reject(new DaemonError(err.message, 'unreachable')));
      },
    );
    req.setTimeout(opts.timeoutMs, () =>
      req.destroy(new DaemonError(`no answer within ${opts.timeoutMs} ms`, 'timeout')),
    );
    req.on('error', (err) => reject(err instanceof DaemonError ? err : new DaemonError(err.message, 'unreachable')));
    req.end(payload);
  });
}
