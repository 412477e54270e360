import http from 'node:http';

export type Answer = { status: number; body: any };

/**
 * One real HTTP request whose TCP connection starts from `ip` (any 127.x.y.z works on
 * Linux loopback), so the server sees a distinct client per address, as it would for
 * requests from many machines. `onSent` is called once the request is written out whole
 * (it is in flight: what is left is the server's).
 */
export function requestFrom(
  ip: string,
  url: string,
  opts: { method?: string; body?: unknown; token?: string; onSent?: () => void } = {},
): Promise<Answer> {
  const u = new URL(url);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { connection: 'close' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? (payload ? 'POST' : 'GET'),
        headers,
        localAddress: ip,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    if (opts.onSent) req.once('finish', opts.onSent);
    req.end(payload);
  });
}

/** The n-th distinct loopback address (127.0.0.1 itself excluded), from a base offset. */
export function loopback(n: number, base = 0): string {
  const k = base + n + 2;
  return `127.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`;
}

/** Counts answers by status: { 401: 20, 429: 130 }. */
export function byStatus(answers: Answer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}
