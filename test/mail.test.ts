import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, linkIn } from './support/smtp';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await stopTestServer(s);
  await smtp.close();
});

const post = (path: string, body: unknown) =>
  fetch(s.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('mail through a real SMTP server', () => {
  it('sends the verification link, which verifies the account', async () => {
    await post('/public_api/register', { username: 'mailer', email: 'mailer@example.test', password: 'mail-pass-1' });
    const mail = await smtp.waitFor('mailer@example.test', /Confirm your Nodekeep email/);
    const link = linkIn(mail.text, '/verify?h=');
    expect(link.startsWith(`${s.url}/verify?h=`)).toBe(true);
    const h = new URL(link).searchParams.get('h')!;
    expect(await post('/public_api/verify', { hash: h })).toEqual({
      status: 200,
      body: { success: true, message: 'Successfully verified!' },
    });
    const row = await s.deps.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_addr', '=', 'mailer@example.test')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
  });

  it('sends the reset link; the new password works and the old does not', async () => {
    await post('/public_api/recover', { email: 'mailer@example.test' });
    const mail = await smtp.waitFor('mailer@example.test', /Reset your Nodekeep password/);
    const token = new URL(linkIn(mail.text, '/reset?token=')).searchParams.get('token')!;
    expect((await post('/public_api/check_reset_token', { token })).status).toBe(200);
    expect((await post('/public_api/reset', { token, password: 'mail-pass-2' })).status).toBe(200);
    expect((await post('/public_api/login', { username: 'mailer', password: 'mail-pass-1' })).status).toBe(401);
    expect((await post('/public_api/login', { username: 'mailer', password: 'mail-pass-2' })).status).toBe(200);
  });

  it('keeps mail in the outbox and retries when the SMTP server is down', async () => {
    const down = await startSmtp();
    const url = down.url;
    await down.close();
    const other = await startTestServer({ SMTP_URL: url });
    try {
      await fetch(`${other.url}/public_api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'offline', email: 'offline@example.test', password: 'offline-1' }),
      });
      await expect
        .poll(
          async () => (await other.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirst())?.attempts ?? 0,
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0);
      const row = await other.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('pending');
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/);
      expect(row.next_attempt_at).toBeGreaterThan(Date.now());
    } finally {
      await stopTestServer(other);
    }
  });
});

describe('mail without SMTP_URL', () => {
  it('goes to the outbox and its text, link included, to the log', async () => {
    const offline = await startTestServer();
    try {
      await fetch(`${offline.url}/public_api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nomail', email: 'nomail@example.test', password: 'nomail-1' }),
      });
      await expect
        .poll(() => offline.logLines.find((l) => l.includes('printed instead of sent')), { timeout: 10_000 })
        .toBeTruthy();
      const line = JSON.parse(offline.logLines.find((l) => l.includes('printed instead of sent'))!);
      expect(line.text).toContain(`${offline.url}/verify?h=`);
      const row = await offline.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('logged');
    } finally {
      await stopTestServer(offline);
    }
  });
});
