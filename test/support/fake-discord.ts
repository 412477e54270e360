import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A FAKE of Discord's webhook API (a SaaS that cannot run here), on loopback: `POST
 * /api/webhooks/<id>/<token>` with `{content}` answers 204 for a known webhook, `404
 * {message: "Unknown Webhook", code: 10015}` for any other, and 400 for empty content.
 */
export async function startFakeDiscord(opts: { webhooks: { id: string; token: string }[] }) {
  const messages: { id: string; content: string; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body?: unknown) =>
        body === undefined
          ? res.writeHead(status).end()
          : res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const m = /^\/api\/webhooks\/(\d+)\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) return reply(404, { message: '404: Not Found', code: 0 });
      if (!opts.webhooks.some((w) => w.id === m[1] && w.token === m[2]))
        return reply(404, { message: 'Unknown Webhook', code: 10015 });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { message: 'Cannot send an empty message', code: 50006 });
      }
      if (typeof body.content !== 'string' || !body.content)
        return reply(400, { message: 'Cannot send an empty message', code: 50006 });
      messages.push({ id: m[1], content: body.content, body });
      reply(204);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    base: `${url}/api/webhooks`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
