import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A FAKE of Telegram's Bot API (a SaaS that cannot run here), on loopback: `POST
 * /bot<token>/sendMessage` with `{chat_id, text}` answers as Telegram does, `{ok: true,
 * result}` for a known token, `401 {ok: false, description: "Unauthorized"}` for any other,
 * and `400 ... chat not found` for a chat the bot is not in.
 */
export async function startFakeTelegram(opts: { tokens: string[]; chats: string[] }) {
  const messages: { token: string; chat_id: string; text: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      const token = decodeURIComponent(m[1]);
      if (!opts.tokens.includes(token)) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      let body: { chat_id?: unknown; text?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
      }
      const chat = String(body.chat_id ?? '');
      if (!opts.chats.includes(chat))
        return reply(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
      if (typeof body.text !== 'string' || !body.text)
        return reply(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
      messages.push({ token, chat_id: chat, text: body.text });
      reply(200, { ok: true, result: { message_id: messages.length, chat: { id: chat }, text: body.text } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
