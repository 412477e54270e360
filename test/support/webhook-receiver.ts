import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = {
  headers: http.IncomingHttpHeaders;
  body: string;
  verdict: 'ok' | 'bad signature' | 'stale' | 'no secret';
};

/**
 * A REAL webhook receiver on loopback, written as a customer would write one (it does not
 * use Nodekeep's code): it checks `Nodekeep-Signature: t=<unix>,v1=<hex>` as the HMAC-SHA256
 * of `<t>.<raw body>` with the secret, and refuses a timestamp more than 300 s from its
 * clock (replay). `clockOffsetS` moves its clock (a replay "later"); `failWith` makes it
 * answer an error to every delivery.
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  const state = { secret: '', clockOffsetS: 0, failWith: null as null | { status: number; text: string } };

  function verdict(header: string | undefined, body: string): Received['verdict'] {
    if (!state.secret) return 'no secret';
    const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=', 2)));
    const t = Number(parts.t);
    if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return 'bad signature';
    const want = createHmac('sha256', state.secret).update(`${t}.${body}`).digest();
    if (!timingSafeEqual(want, Buffer.from(parts.v1, 'hex'))) return 'bad signature';
    const now = Math.floor(Date.now() / 1000) + state.clockOffsetS;
    return Math.abs(now - t) > 300 ? 'stale' : 'ok';
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const v = verdict(req.headers['nodekeep-signature'] as string | undefined, body);
      received.push({ headers: req.headers, body, verdict: v });
      if (state.failWith) {
        res.writeHead(state.failWith.status, { 'content-type': 'text/plain' }).end(state.failWith.text);
        return;
      }
      res.writeHead(v === 'ok' ? 204 : 401).end(v === 'ok' ? undefined : v);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    state,
    /** Sends a captured delivery again, as an attacker who recorded it would. */
    replay: (
      r: { headers: http.IncomingHttpHeaders; body: string },
      over: { signature?: string; body?: string } = {},
    ) =>
      fetch(`${url}/hook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'nodekeep-signature': over.signature ?? String(r.headers['nodekeep-signature']),
        },
        body: over.body ?? r.body,
      }).then(async (res) => ({ status: res.status, text: await res.text() })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
