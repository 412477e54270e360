import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALWAYS_MAILED,
  emailSettingKeys,
  emailSettings,
  notificationKindNames,
  renderNotification,
  type NotificationKind,
} from '../../src/shared/notification-kinds';
import { createApiKey } from '../../src/server/apikeys/keys';
import { totpCode } from '../../src/server/auth/totp';
import { queueNotificationMail } from '../../src/server/notifications/mail';
import { raise } from '../../src/server/notifications/raise';
import { readUnsubscribeToken, unsubscribeToken } from '../../src/server/notifications/unsubscribe-token';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { requestDestroy } from '../../src/server/nodes/lifecycle';
import { findNodeById } from '../../src/server/nodes/repository';
import { systemActor } from '../../src/server/operator/log';
import { makeDeps, type Deps, rejection } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser, type FreshUser } from '../support/users';

let d: Deps;
beforeAll(async () => (d = await makeDeps()));
afterAll(() => d.close());

const node = { mn_id: 'mn-test-1', coin: 'Dash', alias: 'home' };
const rows = (u: FreshUser) =>
  d.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).orderBy('id').execute();
const events = (u: FreshUser) =>
  d.db.selectFrom('events').selectAll().where('user_id', '=', u.id).orderBy('id').execute();
const mailJobs = () => d.db.selectFrom('jobs').selectAll().where('name', '=', 'notify.mail').execute();
const savedRows = (u: FreshUser) =>
  d.db.selectFrom('notification_settings').selectAll().where('user_id', '=', u.id).execute();

describe('the kind map', () => {
  it('words a low balance by the whole days it covers, and less than one as such', () => {
    const text = (days_left: number) =>
      renderNotification('low_balance', { balance_micros: 50_000, days_left }).message;
    expect(text(0)).toBe(
      'Your balance is $0.05: enough for less than a day of hosting. Add funds to keep your nodes running.',
    );
    expect(text(1)).toContain('enough for about 1 day of hosting');
    expect(text(2)).toContain('enough for about 2 days of hosting');
  });

  it('gives every kind a setting that exists, an icon, a message, a local link and a subject', () => {
    const sample: Record<string, unknown> = {
      ...node,
      flaps: 2,
      status: 'POSE_BANNED',
      amount: '1.5 DASH',
      ip: '10.0.0.1',
      name: 'script',
      currency: 'Litecoin',
      usd_micros: 12_500_000,
      balance_micros: 1_000_000,
      days_left: 3,
      host: 'h1',
      free_gb: 4.5,
      total_gb: 100,
      threshold_gb: 20,
    };
    const OPERATOR_KINDS = new Set<string>([
      'host_disk_low',
      'support_message',
      'rollout_halted',
      'card_reversal_alert',
      'daily_charge_late',
    ]);
    for (const kind of notificationKindNames) {
      const n = renderNotification(kind, sample as never);
      expect([...emailSettingKeys, ALWAYS_MAILED], kind).toContain(n.setting);
      expect(n.message.length, kind).toBeGreaterThan(10);
      // Operator-only kinds link into the operator's console; the others into the dashboard (a page, or the dashboard with the chat open).
      expect(n.link, kind).toMatch(OPERATOR_KINDS.has(kind) ? /^\/console\// : /^\/dashboard([/?]|$)/);
      expect(n.subject.length, kind).toBeGreaterThan(5);
    }
    expect(renderNotification('node_down', { ...node, flaps: 2 }).message).toBe(
      'Your Dash node mn-test-1 (home) is down. It went down 2 more times since the last alert.',
    );
    // A label that names its kind of node gets no second "node".
    const zen = { mn_id: 'zen42-1', coin: 'Horizen Secure Node', alias: null };
    expect(renderNotification('node_down', { ...zen, flaps: 0 }).message).toBe(
      'Your Horizen Secure Node zen42-1 is down.',
    );
    expect(renderNotification('node_down', { ...zen, flaps: 0 }).subject).toBe('Your Horizen Secure Node is down');
    expect(renderNotification('deposit_credited', { currency: 'Litecoin', usd_micros: 12_345_678 }).message).toContain(
      '$12.35',
    );
    expect(emailSettings.first_reward.default).toBe(false);
    expect(emailSettings.rewards.default).toBe(false);
    // The security kinds, an alert channel turned off (the owner relied on it) and the operators' alarms are mailed whatever the settings say.
    expect(
      notificationKindNames.filter((k) => renderNotification(k, sample as never).setting === ALWAYS_MAILED).sort(),
    ).toEqual([
      'alert_channel_disabled',
      'api_key_created',
      'daily_charge_late',
      'host_disk_low',
      'login_new_ip',
      'password_changed',
      'rollout_halted',
      'tfa_disabled',
      'tfa_enabled',
    ]);
  });
});

describe('get_notifications and clear_notifications', () => {
  it("lists only the owner's open notifications, newest first, in the spec's shape", async () => {
    const [a, b] = [await freshUser(d.deps), await freshUser(d.deps)];
    expect(await d.caller(a.token).notifications.get_notifications()).toEqual({ success: true, notifications: [] });
    await raise(d.db, a.id, 'node_deployed', node);
    await raise(d.db, a.id, 'network_status', { ...node, status: 'REMOVED' });
    await raise(d.db, b.id, 'node_up', node);
    const res = await d.caller(a.token).notifications.get_notifications();
    expect(res.notifications).toEqual([
      {
        message: 'Your Dash node mn-test-1 (home) was removed from the masternode list.',
        icon: 'warning',
        link: '/dashboard/masternode/mn-test-1',
        hour: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      },
      {
        message: 'Your Dash node mn-test-1 (home) is deployed and syncing.',
        icon: 'check',
        link: '/dashboard/masternode/mn-test-1',
        hour: expect.any(String),
      },
    ]);
    expect((await d.caller(b.token).notifications.get_notifications()).notifications.map((n) => n.icon)).toEqual([
      'up',
    ]);
  });

  it("clears a destroyed node's notifications, and only that node's, and tells the owner's tabs", async () => {
    await importCatalog(d.db, bundledCatalogPath(), 'seed');
    const [a, b] = [await freshUser(d.deps), await freshUser(d.deps)];
    const gone = { mn_id: `dash_${a.id}`, coin: 'Dash', alias: null };
    // An id that starts with the gone node's: `_` is no wildcard here.
    const kept = { mn_id: `dash_${a.id}0`, coin: 'Dash', alias: null };
    const goneId = await insertTestNode(d.db, { mn_id: gone.mn_id, user_id: a.id, coin_id: 'dash', state: 'live' });
    await raise(d.db, a.id, 'start_required', gone); // links to ?tab=config
    await raise(d.db, a.id, 'node_down', gone);
    await raise(d.db, a.id, 'node_down', kept);
    await raise(d.db, a.id, 'low_balance', { balance_micros: 50_000, days_left: 0 });
    await raise(d.db, b.id, 'node_down', gone);
    const before = (await events(a)).length;

    expect(await requestDestroy(d.db, (await findNodeById(d.db, goneId))!, systemActor('test'), 'Other reason')).toBe(
      true,
    );
    const open = (await d.caller(a.token).notifications.get_notifications()).notifications;
    expect(open.map((n) => n.link)).toEqual(['/dashboard/billing', `/dashboard/masternode/${kept.mn_id}`]);
    expect((await rows(a)).filter((r) => r.cleared_at !== null)).toHaveLength(2);
    expect((await events(a)).slice(before).map((e) => e.type)).toContain('refresh_notifications');
    // Another account's notifications are its own, whatever they link to.
    expect((await d.caller(b.token).notifications.get_notifications()).notifications).toHaveLength(1);
  });

  it("clears the caller's notifications only, tells their other tabs, and refuses input", async () => {
    const [a, b] = [await freshUser(d.deps), await freshUser(d.deps)];
    await raise(d.db, a.id, 'node_down', node);
    await raise(d.db, b.id, 'node_down', node);
    expect(await d.caller(a.token).notifications.clear_notifications()).toEqual({ success: true });
    expect((await d.caller(a.token).notifications.get_notifications()).notifications).toEqual([]);
    expect((await d.caller(b.token).notifications.get_notifications()).notifications).toHaveLength(1);
    expect((await events(a)).map((e) => e.type).slice(-1)).toEqual(['refresh_notifications']);
    expect((await rows(a)).every((r) => r.cleared_at !== null)).toBe(true);

    const bad = await rejection(d.caller(b.token).notifications.clear_notifications({ all: true } as never));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/all/);
    expect((await d.caller(b.token).notifications.get_notifications()).notifications).toHaveLength(1);
  });

  it('refuses callers without a session', async () => {
    expect((await rejection(d.caller(null).notifications.get_notifications())).code).toBe('UNAUTHORIZED');
    expect((await rejection(d.caller('nope').notifications.clear_notifications())).code).toBe('UNAUTHORIZED');
    expect((await rejection(d.caller(null).notifications.save_notification_settings({ settings: [] }))).code).toBe(
      'UNAUTHORIZED',
    );
  });
});

describe('notification settings', () => {
  it('answers every email setting by name with its label, subtitle and default', async () => {
    const u = await freshUser(d.deps);
    const res = await d.caller(u.token).notifications.get_notification_settings();
    expect(Object.keys(res.settings)).toEqual(emailSettingKeys);
    expect(res.settings.node_down).toEqual({
      label: 'Node down and back up',
      subtitle: emailSettings.node_down.subtitle,
      enabled: true,
    });
    // Security mail is always sent: no setting offers to turn it off.
    expect(res.settings).not.toHaveProperty('security');
    expect(res.settings.rewards.enabled).toBe(false);
  });

  it('saves the listed settings on and every other off', async () => {
    const u = await freshUser(d.deps);
    expect(
      await d
        .caller(u.token)
        .notifications.save_notification_settings({ settings: ['rewards', 'node_down', 'rewards'] }),
    ).toEqual({ success: true });
    const res = await d.caller(u.token).notifications.get_notification_settings();
    expect(
      Object.entries(res.settings)
        .filter(([, s]) => s.enabled)
        .map(([k]) => k)
        .sort(),
    ).toEqual(['node_down', 'rewards']);
  });

  it('refuses unknown names and malformed input with a clear message, writing nothing', async () => {
    const u = await freshUser(d.deps);
    const unknown = await rejection(
      d.caller(u.token).notifications.save_notification_settings({ settings: ['payments', 'sms_alerts'] }),
    );
    expect(unknown).toMatchObject({ code: 'BAD_REQUEST' });
    expect(unknown.message).toMatch(/^Unknown notification setting: sms_alerts\. Known settings: node_deployed, /);
    expect(unknown.message).not.toContain('security');
    const security = await rejection(
      d.caller(u.token).notifications.save_notification_settings({ settings: ['security'] }),
    );
    expect(security.message).toMatch(/^Unknown notification setting: security\./);
    for (const input of [
      {},
      { settings: 'security' },
      { settings: [1] },
      { settings: ['security'], extra: 1 },
      { settings: ['x'.repeat(65)] },
    ]) {
      expect((await rejection(d.caller(u.token).notifications.save_notification_settings(input as never))).code).toBe(
        'BAD_REQUEST',
      );
    }
    expect(await savedRows(u)).toEqual([]);
    // Even an inherited property name is no setting.
    expect(
      (await rejection(d.caller(u.token).notifications.save_notification_settings({ settings: ['constructor'] })))
        .message,
    ).toMatch(/constructor/);
  });

  it('stays whole under 100 parallel saves and clears', async () => {
    const u = await freshUser(d.deps);
    for (let i = 0; i < 20; i += 1) await raise(d.db, u.id, 'node_down', node);
    const lists = Array.from({ length: 100 }, (_, i) =>
      emailSettingKeys.filter((_k, j) => (i >> j) & 1 || j === i % emailSettingKeys.length),
    );
    const results = await Promise.all(
      lists.flatMap((settings, i) => [
        d.caller(u.token, `127.0.${i}.1`).notifications.save_notification_settings({ settings }),
        d.caller(u.token, `127.1.${i}.1`).notifications.clear_notifications(),
      ]),
    );
    expect(results.every((r) => r.success)).toBe(true);
    // Each save replaces all settings at once: what stays is one save's whole list.
    const on = Object.entries((await d.caller(u.token).notifications.get_notification_settings()).settings)
      .filter(([, s]) => s.enabled)
      .map(([k]) => k);
    expect(lists.map((l) => l.join())).toContain(on.join());
    expect(await savedRows(u)).toHaveLength(emailSettingKeys.length);
    expect((await rows(u)).filter((r) => r.cleared_at === null)).toEqual([]);
    // One clear found the rows open: one refresh, not a hundred.
    expect((await events(u)).filter((e) => e.type === 'refresh_notifications')).toHaveLength(20 + 1);
  });
});

describe('raise', () => {
  it('writes the row, both live events for the owner and the mail job when the setting is on', async () => {
    const u = await freshUser(d.deps);
    const before = (await mailJobs()).length;
    await raise(d.db, u.id, 'node_down', node);
    expect((await events(u)).slice(-2).map((e) => [e.type, JSON.parse(e.payload)])).toEqual([
      [
        'new_notification',
        { message: 'Your Dash node mn-test-1 (home) is down.', icon: 'down', link: '/dashboard/masternode/mn-test-1' },
      ],
      ['refresh_notifications', {}],
    ]);
    expect((await mailJobs()).length).toBe(before + 1);
    // Rewards are off by default: in-app only.
    await raise(d.db, u.id, 'reward', { ...node, amount: '1 DASH' });
    expect((await mailJobs()).length).toBe(before + 1);
    expect((await rows(u)).map((r) => r.kind)).toEqual(['node_down', 'reward']);
  });

  it("leaves nothing behind when the caller's transaction rolls back", async () => {
    const u = await freshUser(d.deps);
    const jobs = (await mailJobs()).length;
    const eventCount = (await events(u)).length;
    await expect(
      d.db.transaction().execute(async (trx) => {
        await raise(trx, u.id, 'node_down', node);
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect(await rows(u)).toEqual([]);
    expect((await events(u)).length).toBe(eventCount);
    expect((await mailJobs()).length).toBe(jobs);
  });

  it('renders the mail with text, HTML and one-click unsubscribe headers; a kind raised once its setting is off gets no mail', async () => {
    const u = await freshUser(d.deps);
    await raise(d.db, u.id, 'node_down', { ...node, alias: '<b>x</b>' });
    const n = (await rows(u)).at(-1)!;
    expect(await queueNotificationMail(d.db, 'https://nodekeep.test', n.id)).toBe('queued');
    const mail = await d.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_addr', '=', u.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your Dash node is down');
    expect(mail.text).toContain('Your Dash node mn-test-1 (<b>x</b>) is down.');
    expect(mail.html).toContain('(&#60;b&#62;x&#60;/b&#62;) is down.');
    const headers = JSON.parse(mail.headers!);
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<(https:\/\/nodekeep\.test\/unsubscribe\?t=[^>]+)>$/.exec(headers['List-Unsubscribe'])![1];
    expect(mail.text).toContain(url);
    expect(await readUnsubscribeToken(d.db, new URL(url).searchParams.get('t')!)).toEqual({
      userId: u.id,
      setting: 'node_down',
    });

    await d.caller(u.token).notifications.save_notification_settings({ settings: ['payments'] });
    const jobs = (await mailJobs()).length;
    await raise(d.db, u.id, 'node_down', node);
    expect((await mailJobs()).length).toBe(jobs);
  });

  it('queues one mail per notification however often its job runs (a retry after the insert committed)', async () => {
    const u = await freshUser(d.deps);
    await raise(d.db, u.id, 'node_down', node);
    const n = (await rows(u)).at(-1)!;
    // Notification mail has an HTML part (the verification mail of freshUser has none).
    const outbox = () =>
      d.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_addr', '=', u.email)
        .where('html', 'is not', null)
        .execute();
    const sendJobs = async () => {
      const ids = new Set((await outbox()).map((m) => m.id));
      return (await d.db.selectFrom('jobs').select('payload').where('name', '=', 'mail.send').execute()).filter((j) =>
        ids.has(JSON.parse(j.payload).mail_id),
      );
    };
    expect(await queueNotificationMail(d.db, 'https://nodekeep.test', n.id)).toBe('queued');
    expect(await queueNotificationMail(d.db, 'https://nodekeep.test', n.id)).toBe('already queued');
    // And racing attempts (an attempt whose lease ran out, and its retry).
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => queueNotificationMail(d.db, 'https://nodekeep.test', n.id)),
    );
    expect(racing.every((r) => r === 'already queued')).toBe(true);
    expect(await outbox()).toHaveLength(1);
    expect(await sendJobs()).toHaveLength(1);
    // Another notification of the same user still gets its own mail.
    await raise(d.db, u.id, 'node_up', node);
    expect(await queueNotificationMail(d.db, 'https://nodekeep.test', (await rows(u)).at(-1)!.id)).toBe('queued');
    expect(await outbox()).toHaveLength(2);
  });

  it('refuses forged and tampered unsubscribe tokens', async () => {
    const [a, b] = [await freshUser(d.deps), await freshUser(d.deps)];
    const token = await unsubscribeToken(d.db, a.id, 'payments');
    const [, , sig] = token.split('.');
    const forgedList = [
      `${b.id}.payments.${sig}`,
      `${a.id}.balance.${sig}`,
      `${token.slice(0, -2)}AA`,
      `${a.id}.payments.${'A'.repeat(43)}`,
      '',
      'x',
      `${a.id}.constructor.${sig}`,
    ];
    // Security has no setting, so no token can name it, even one signed for it.
    forgedList.push(`${a.id}.security.${createHmac('sha256', 'x').digest('base64url')}`);
    for (const forged of forgedList) {
      expect(await readUnsubscribeToken(d.db, forged), forged).toBeNull();
    }
  });
});

describe('raised from the real triggers', () => {
  const kinds = async (u: FreshUser) => (await rows(u)).map((r) => r.kind as NotificationKind);

  it('a login from a new address, not the first login nor one from a known address', async () => {
    const u = await freshUser(d.deps); // its login came from a fresh address: the first, no news
    expect(await kinds(u)).toEqual([]);
    await d.caller(null, '10.77.0.1').auth.login({ username: u.username, password: u.password });
    expect(await kinds(u)).toEqual(['login_new_ip']);
    expect((await rows(u))[0].message).toContain('10.77.0.1');
    await d.caller(null, '10.77.0.1').auth.login({ username: u.username, password: u.password });
    expect(await kinds(u)).toEqual(['login_new_ip']);
  });

  it('security mail cannot be switched off nor raced: a thief who logs in and saves no settings at once is still reported', async () => {
    const u = await freshUser(d.deps);
    const ip = '127.61.0.9';
    const { auth_token } = await d.caller(null, ip).auth.login({ username: u.username, password: u.password });
    const thief = d.caller(auth_token!, ip);
    // Right after the login, before any job ran: every setting off.
    expect(await thief.notifications.save_notification_settings({ settings: [] })).toEqual({ success: true });
    await thief.auth.change_password({ current_password: u.password, new_password: 'thief pass 77' });
    expect((await rows(u)).map((r) => r.kind)).toEqual(['login_new_ip', 'password_changed']);

    // Run the mail jobs of this user's notifications, as the job runner would.
    const ids = new Set((await rows(u)).map((r) => r.id));
    const jobs = (await mailJobs())
      .map((j) => JSON.parse(j.payload).notification_id as number)
      .filter((id) => ids.has(id));
    expect(jobs).toHaveLength(2);
    for (const id of jobs) expect(await queueNotificationMail(d.db, 'https://nodekeep.test', id)).toBe('queued');
    const outbox = await d.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_addr', '=', u.email)
      .where('html', 'is not', null)
      .orderBy('id')
      .execute();
    expect(outbox.map((m) => m.subject)).toEqual([
      'New login to your Nodekeep account',
      'Your Nodekeep password was changed',
    ]);
    expect(outbox[0].text).toContain(`New login to your account from ${ip}.`);
    // No unsubscribe link nor header: nothing to turn off.
    expect(outbox[0].headers).toBeNull();
    expect(outbox[0].text).not.toContain('/unsubscribe');
    expect(outbox[0].text).toContain('these mails cannot be turned off');
    // Nor can security be named to turn it off.
    expect(
      (await rejection(thief.notifications.save_notification_settings({ settings: ['security'] }))).message,
    ).toMatch(/^Unknown notification setting: security\./);
    // A kind the user can turn off stays off.
    await raise(d.db, u.id, 'node_down', node);
    const downId = (await rows(u)).at(-1)!.id;
    expect((await mailJobs()).map((j) => JSON.parse(j.payload).notification_id)).not.toContain(downId);
  });

  it('password changed, 2FA on and off, API key created', async () => {
    const u = await freshUser(d.deps, { tfa: true });
    expect(await kinds(u)).toEqual(['tfa_enabled']);
    await d.caller(u.token).auth.change_password({ current_password: u.password, new_password: 'another pass 9' });
    await createApiKey(d.db, u.id, { name: 'my script' });
    expect(await kinds(u)).toEqual(['tfa_enabled', 'password_changed', 'api_key_created']);
    expect((await rows(u)).at(-1)!.message).toBe('A new API key "my script" was created for your account.');
  });
});
