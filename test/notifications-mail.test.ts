import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterRaise, raise } from '../src/server/notifications/raise';
import { startSmtp } from './support/smtp';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser } from './support/users';

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

const api = (path: string, token: string | null, body?: unknown) =>
  fetch(s.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

const settingOn = async (token: string, key: string) => (await api('/api/get_notification_settings', token)).body.settings[key].enabled as boolean;

describe('notification mail through a real SMTP server', () => {
  it('mails a raised kind with text, HTML and RFC 8058 headers; the link unsubscribes without a login; then nothing is mailed', async () => {
    const alice = await freshUser(s.deps, { prefix: 'alice' });
    const bob = await freshUser(s.deps, { prefix: 'bob' });

    // A real trigger: alice logs in from an address she never used (127.0.0.1).
    const login = await fetch(`${s.url}/public_api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: alice.username, password: alice.password }) });
    expect(login.status).toBe(200);
    const mail = await smtp.waitFor(alice.email, /New login to your Nodekeep account/);
    expect(mail.text).toContain('New login to your account from 127.0.0.1.');
    expect(mail.text).toContain(`${s.url}/dashboard/settings`);
    expect(mail.html).toContain('New login to your account from 127.0.0.1.');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<([^>]+)>$/.exec(mail.headers['list-unsubscribe'])![1];
    expect(url.startsWith(`${s.url}/unsubscribe?t=`)).toBe(true);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(url.replace(/&/g, '&#38;'));

    // Looking at the link (as a scanner or a preview would) changes nothing.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Stop emails about "Security"\?[\s\S]*<form method="post"/);
    expect(await settingOn(alice.token, 'security')).toBe(true);

    // A token moved to another user, or altered, is refused and changes nothing.
    const token = new URL(url).searchParams.get('t')!;
    const forged = [token.replace(/^\d+\./, `${bob.id}.`), token.replace(/\.security\./, '.payments.'), `${token.slice(0, -3)}abc`];
    for (const t of forged) {
      const target = `${s.url}/unsubscribe?t=${encodeURIComponent(t)}`;
      expect((await fetch(target)).status).toBe(400);
      const post = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(post.status).toBe(400);
      expect(await post.text()).toContain('This unsubscribe link is not valid.');
    }
    expect(await settingOn(bob.token, 'security')).toBe(true);
    expect(await settingOn(bob.token, 'payments')).toBe(true);
    expect(await settingOn(alice.token, 'payments')).toBe(true);
    expect(await settingOn(alice.token, 'security')).toBe(true);

    // The mail client's one-click POST (RFC 8058), no login.
    const done = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You will no longer get emails about "Security"');
    expect(await settingOn(alice.token, 'security')).toBe(false);
    expect(await settingOn(alice.token, 'node_down')).toBe(true);

    // Security is off now: a password change is in the dropdown but queues no mail.
    expect((await api('/api/change_password', alice.token, { current_password: alice.password, new_password: 'alice new pass 2' })).status).toBe(200);
    const list = (await api('/api/get_notifications', alice.token)).body.notifications as { message: string }[];
    expect(list[0].message).toMatch(/^Your password was changed/);
    const changed = await s.deps.db.selectFrom('notifications').select('id').where('user_id', '=', alice.id).where('kind', '=', 'password_changed').executeTakeFirstOrThrow();
    const jobs = await s.deps.db.selectFrom('jobs').select('payload').where('name', '=', 'notify.mail').execute();
    expect(jobs.map((j) => JSON.parse(j.payload).notification_id)).not.toContain(changed.id);

    // A kind that is still on is mailed; by the time it arrives, no password mail has come.
    await raise(s.deps.db, alice.id, 'node_down', { mn_id: 'mn-a1', coin: 'Dash' });
    afterRaise(s.deps);
    const down = await smtp.waitFor(alice.email, /node is down/);
    expect(down.text).toContain('Your Dash node mn-a1 is down.');
    expect(smtp.inbox.filter((m) => m.to.includes(alice.email) && /password/i.test(m.subject))).toEqual([]);
    const outbox = await s.deps.db.selectFrom('mail_outbox').select('subject').where('to_addr', '=', alice.email).execute();
    expect(outbox.map((m) => m.subject).filter((x) => /password/i.test(x))).toEqual([]);
  });

  it('saves settings over REST and refuses unknown names with 400, writing nothing', async () => {
    const u = await freshUser(s.deps, { prefix: 'carol' });
    const bad = await api('/api/save_notification_settings', u.token, { settings: ['security', 'pager'] });
    expect(bad).toEqual({ status: 400, body: { success: false, message: expect.stringMatching(/^Unknown notification setting: pager\./), error_input: 'settings' } });
    expect(await settingOn(u.token, 'security')).toBe(true);
    expect(await api('/api/save_notification_settings', u.token, { settings: ['rewards'] })).toEqual({ status: 200, body: { success: true } });
    expect(await settingOn(u.token, 'rewards')).toBe(true);
    expect(await settingOn(u.token, 'security')).toBe(false);
    expect((await api('/api/clear_notifications', u.token, {})).body).toEqual({ success: true });
    expect((await api('/api/get_notifications', null)).status).toBe(401);
  });
});
