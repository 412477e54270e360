import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterRaise, raise } from '../src/server/notifications/raise';
import { requestFrom } from './support/from-ip';
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
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

const settingOn = async (token: string, key: string) =>
  (await api('/api/get_notification_settings', token)).body.settings[key].enabled as boolean;

describe('notification mail through a real SMTP server', () => {
  it('mails a raised kind with text, HTML and RFC 8058 headers; the link unsubscribes without a login; then that kind is not mailed', async () => {
    const alice = await freshUser(s.deps, { prefix: 'alice' });
    const bob = await freshUser(s.deps, { prefix: 'bob' });

    await raise(s.deps.db, alice.id, 'node_down', { mn_id: 'mn-a1', coin: 'Dash' });
    afterRaise(s.deps);
    const mail = await smtp.waitFor(alice.email, /node is down/);
    expect(mail.text).toContain('Your Dash node mn-a1 is down.');
    expect(mail.text).toContain(`${s.url}/dashboard/masternode/mn-a1`);
    expect(mail.html).toContain('Your Dash node mn-a1 is down.');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<([^>]+)>$/.exec(mail.headers['list-unsubscribe'])![1];
    expect(url.startsWith(`${s.url}/unsubscribe?t=`)).toBe(true);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(url.replace(/&/g, '&#38;'));

    // Looking at the link (as a scanner or a preview would) changes nothing.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Stop emails about "Node down and back up"\?[\s\S]*<form method="post"/);
    expect(await settingOn(alice.token, 'node_down')).toBe(true);

    // A token moved to another user, or altered, or naming security (which has no setting), is refused and changes nothing.
    const token = new URL(url).searchParams.get('t')!;
    const forged = [
      token.replace(/^\d+\./, `${bob.id}.`),
      token.replace(/\.node_down\./, '.payments.'),
      token.replace(/\.node_down\./, '.security.'),
      `${token.slice(0, -3)}abc`,
    ];
    for (const t of forged) {
      const target = `${s.url}/unsubscribe?t=${encodeURIComponent(t)}`;
      expect((await fetch(target)).status).toBe(400);
      const post = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(post.status).toBe(400);
      expect(await post.text()).toContain('This unsubscribe link is not valid.');
    }
    expect(await settingOn(bob.token, 'node_down')).toBe(true);
    expect(await settingOn(bob.token, 'payments')).toBe(true);
    expect(await settingOn(alice.token, 'payments')).toBe(true);
    expect(await settingOn(alice.token, 'node_down')).toBe(true);

    // The mail client's one-click POST (RFC 8058), no login.
    const done = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You will no longer get emails about "Node down and back up"');
    expect(await settingOn(alice.token, 'node_down')).toBe(false);
    expect(await settingOn(alice.token, 'network_status')).toBe(true);

    // node_down is off now: the next one is in the dropdown but queues no mail.
    await raise(s.deps.db, alice.id, 'node_down', { mn_id: 'mn-a2', coin: 'Dash' });
    const list = (await api('/api/get_notifications', alice.token)).body.notifications as { message: string }[];
    expect(list[0].message).toBe('Your Dash node mn-a2 is down.');
    const second = await s.deps.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', alice.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const jobs = await s.deps.db.selectFrom('jobs').select('payload').where('name', '=', 'notify.mail').execute();
    expect(jobs.map((j) => JSON.parse(j.payload).notification_id)).not.toContain(second.id);

    // A kind that is still on is mailed; by the time it arrives, no second down mail has come.
    await raise(s.deps.db, alice.id, 'network_status', { mn_id: 'mn-a1', coin: 'Dash', status: 'REMOVED' });
    afterRaise(s.deps);
    const removed = await smtp.waitFor(alice.email, /REMOVED/);
    expect(removed.text).toContain('Your Dash node mn-a1 was removed from the masternode list.');
    expect(smtp.inbox.filter((m) => m.to.includes(alice.email) && /down/i.test(m.subject))).toEqual([]);
  });

  it('mails a login from a new address even when the thief saves every setting off at once, and each later security change', async () => {
    const dave = await freshUser(s.deps, { prefix: 'dave' });
    const ip = '127.58.0.3';
    // The thief logs in from an address dave never used and, in the next request, turns every mail off.
    const login = await requestFrom(ip, `${s.url}/public_api/login`, {
      body: { username: dave.username, password: dave.password },
    });
    expect(login.status).toBe(200);
    const thief = login.body.auth_token as string;
    expect(
      (await requestFrom(ip, `${s.url}/api/save_notification_settings`, { token: thief, body: { settings: [] } }))
        .status,
    ).toBe(200);

    const mail = await smtp.waitFor(dave.email, /New login to your Nodekeep account/);
    expect(mail.text).toContain(`New login to your account from ${ip}.`);
    expect(mail.text).toContain('these mails cannot be turned off');
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
    expect(mail.text).not.toContain('/unsubscribe');

    // Later changes are not silent either.
    expect(
      (
        await requestFrom(ip, `${s.url}/api/change_password`, {
          token: thief,
          body: { current_password: dave.password, new_password: 'thief pass 42' },
        })
      ).status,
    ).toBe(200);
    await smtp.waitFor(dave.email, /password was changed/);
    const outbox = await s.deps.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_addr', '=', dave.email)
      .where('html', 'is not', null)
      .execute();
    expect(outbox.map((m) => m.subject).sort()).toEqual([
      'New login to your Nodekeep account',
      'Your Nodekeep password was changed',
    ]);
    // Security cannot be named to turn it off.
    const refused = await requestFrom(ip, `${s.url}/api/save_notification_settings`, {
      token: thief,
      body: { settings: ['security'] },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { success: false, message: expect.stringMatching(/^Unknown notification setting: security\./) },
    });
  });

  it('saves settings over REST and refuses unknown names with 400, writing nothing', async () => {
    const u = await freshUser(s.deps, { prefix: 'carol' });
    const bad = await api('/api/save_notification_settings', u.token, { settings: ['payments', 'pager'] });
    expect(bad).toEqual({
      status: 400,
      body: {
        success: false,
        message: expect.stringMatching(/^Unknown notification setting: pager\./),
        error_input: 'settings',
      },
    });
    expect(await settingOn(u.token, 'payments')).toBe(true);
    expect(await api('/api/save_notification_settings', u.token, { settings: ['rewards'] })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(await settingOn(u.token, 'rewards')).toBe(true);
    expect(await settingOn(u.token, 'payments')).toBe(false);
    expect((await api('/api/clear_notifications', u.token, {})).body).toEqual({ success: true });
    expect((await api('/api/get_notifications', null)).status).toBe(401);
  });
});
