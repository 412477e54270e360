import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { pidsMatching, waitFor } from './support/daemons';
import { fastFleetEnv } from './support/fast-fleet';
import { liveClient } from './support/live';
import { monitorCheckAfter, networkCheckAfter } from './support/monitor-check';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';
import { startSmtp } from './support/smtp';
import { startWebhookReceiver } from './support/webhook-receiver';
import { freshUser, type FreshUser } from './support/users';

// Nodes really placed on the simulator, taken down through its admin API (the daemon stops
// answering) and brought back by the operator's restart. The down threshold is 2 s here
// (ALERT_DOWN_SECONDS; 3 minutes in production); the monitor checks every half second.
const dataDir = tempDataDir('nodekeep-alerts-');
// The quiet-hours test's webhook receiver is on loopback, which production refuses.
const env = { ...fastFleetEnv(dataDir), ALERT_DOWN_SECONDS: '2', ALERT_WEBHOOK_ALLOW_PRIVATE: 'true' };
const DOWN_MS = 2000;
// A check that began just before the kill and met the dead daemon counts the failure from its
// own start: the down may come that much before DOWN_MS after the kill (a check takes well under
// a second; a down raised without the threshold comes at once, far below DOWN_MS - 1 s).
const CHECK_SLACK_MS = 1000;
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  smtp = await startSmtp();
  receiver = await startWebhookReceiver();
  s = await startTestServer({ ...env, SMTP_URL: smtp.url }, { dataDir });
});
afterAll(async () => {
  await stopTestServer(s);
  await smtp.close();
  await receiver.close();
  expect(pidsMatching(dataDir)).toEqual([]);
});

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, ...env }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
};
const simAdmin = (method: string, p: string, body?: unknown) => {
  const simPort = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
  return fetch(`http://127.0.0.1:${simPort}/admin${p}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
};
const post = (u: FreshUser, p: string, body: unknown) =>
  fetch(s.url + p, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const get = (u: FreshUser, p: string) =>
  fetch(s.url + p, { headers: { authorization: `Bearer ${u.token}` } }).then((r) => r.json());

/** The user's notification rows of a node, oldest first. */
const rowsOf = (userId: number, mnId: string) =>
  s.deps.db
    .selectFrom('notifications')
    .select(['id', 'kind', 'message', 'created_at', 'mail_held', 'channels_held'])
    .where('user_id', '=', userId)
    .where('params', 'like', `%"${mnId}"%`)
    .orderBy('id')
    .execute();
const kindsOf = async (userId: number, mnId: string) => (await rowsOf(userId, mnId)).map((r) => r.kind);

/** A dash node of the user on the simulator, waited for until its daemon answers ("start required"). */
async function deployedNode(u: FreshUser): Promise<string> {
  const created = await cli('fleet', 'create', 'dash', '--user', u.username, '--plan', 'cloud');
  expect(created.code).toBe(0);
  const mnId = /node (\S+) requested/.exec(created.out)![1];
  await waitFor(
    async () =>
      (await s.deps.db.selectFrom('node_view').select('status').where('mn_id', '=', mnId).executeTakeFirst())
        ?.status === 'start required',
    20_000,
    'start required',
  );
  return mnId;
}

describe('node down and back up, raised by the monitor', () => {
  it('raises exactly one down after the threshold and one back up when the node returns, as toasts, rows and mail', async () => {
    const owner = await freshUser(s.deps, { prefix: 'alerted' });
    const live = liveClient(s.url, owner.token);
    try {
      await expect.poll(() => live.types()).toContain('sync');
      const mnId = await deployedNode(owner);
      await waitFor(
        async () => (await kindsOf(owner.id, mnId)).includes('start_required'),
        10_000,
        'start required raised',
      );

      const stoppedAt = Date.now();
      expect((await simAdmin('DELETE', `/nodes/${mnId}`)).status).toBe(200);
      const down = await waitFor(
        async () => (await rowsOf(owner.id, mnId)).find((r) => r.kind === 'node_down'),
        15_000,
        'node_down',
      );
      // Not before the node had failed its checks for the whole threshold.
      expect(down.created_at - stoppedAt).toBeGreaterThanOrEqual(DOWN_MS - CHECK_SLACK_MS);
      expect(down.message).toBe(`Your Dash node ${mnId} is down.`);
      await expect
        .poll(
          () =>
            live.received.find((e) => e.type === 'new_notification' && (e.payload as { icon: string }).icon === 'down')
              ?.payload,
        )
        .toEqual({
          message: down.message,
          icon: 'down',
          link: `/dashboard/masternode/${mnId}`,
        });
      const downMail = await smtp.waitFor(owner.email, /Your Dash node is down/);
      expect(downMail.text).toContain(down.message);
      expect(downMail.headers['list-unsubscribe']).toMatch(/\/unsubscribe\?t=/);

      // Still down for twice the threshold: no second down.
      await monitorCheckAfter(s.deps.db, mnId, down.created_at + 2 * DOWN_MS);
      expect((await kindsOf(owner.id, mnId)).filter((k) => k === 'node_down')).toHaveLength(1);

      expect((await cli('fleet', 'restart', mnId)).code).toBe(0);
      const up = await waitFor(
        async () => (await rowsOf(owner.id, mnId)).find((r) => r.kind === 'node_up'),
        15_000,
        'node_up',
      );
      expect(up.message).toBe(`Your Dash node ${mnId} is back up.`);
      await smtp.waitFor(owner.email, /Your Dash node is back up/);
      // Running on for a while raises nothing more; "start required" was not raised again
      // by the outage (the node asked for it before and after).
      await monitorCheckAfter(s.deps.db, mnId, up.created_at + DOWN_MS);
      expect(await kindsOf(owner.id, mnId)).toEqual(['node_deployed', 'start_required', 'node_down', 'node_up']);
      const list = await get(owner, '/api/get_notifications');
      expect(list.notifications.map((n: { message: string }) => n.message)).toEqual(
        expect.arrayContaining([down.message, up.message]),
      );
    } finally {
      await live.close();
    }
  }, 90_000);

  it('a flapping node gets one down and one back up per 30 minutes; the next down counts the flaps', async () => {
    const owner = await freshUser(s.deps, { prefix: 'flapper' });
    const live = liveClient(s.url, owner.token);
    const downMails = () => smtp.inbox.filter((m) => m.to.includes(owner.email) && /is down/.test(m.subject));
    const upMails = () => smtp.inbox.filter((m) => m.to.includes(owner.email) && /is back up/.test(m.subject));
    const liveOf = (icon: string) =>
      live.received.filter((e) => e.type === 'new_notification' && (e.payload as { icon: string }).icon === icon);
    try {
      await expect.poll(() => live.types()).toContain('sync');
      const mnId = await deployedNode(owner);
      await waitFor(
        async () => (await kindsOf(owner.id, mnId)).includes('start_required'),
        10_000,
        'start required raised',
      );
      const nodeId = (
        await s.deps.db.selectFrom('nodes').select('id').where('mn_id', '=', mnId).executeTakeFirstOrThrow()
      ).id;
      const alertState = () =>
        s.deps.db.selectFrom('node_alerts').selectAll().where('node_id', '=', nodeId).executeTakeFirstOrThrow();
      const count = async (kind: string) => (await kindsOf(owner.id, mnId)).filter((k) => k === kind).length;
      /** Killed on the simulator, then revived by the operator's restart once `whileDown` is true. */
      async function outage(whileDown: () => Promise<boolean>, what: string) {
        expect((await simAdmin('DELETE', `/nodes/${mnId}`)).status).toBe(200);
        await waitFor(whileDown, 15_000, what);
        expect((await cli('fleet', 'restart', mnId)).code).toBe(0);
        await waitFor(async () => (await alertState()).failing_since === null, 15_000, `${what}: answering again`);
      }

      // The first real outage: one down, then one back up.
      await outage(async () => (await count('node_down')) === 1, 'first down');
      await waitFor(async () => (await count('node_up')) === 1, 10_000, 'first back up');
      await smtp.waitFor(owner.email, /Your Dash node is down/);
      await smtp.waitFor(owner.email, /Your Dash node is back up/);

      // Three more outages, each past the threshold, inside the 30 minutes: counted, not raised.
      for (let flap = 1; flap <= 3; flap++) {
        await outage(async () => (await alertState()).flaps === flap, `flap ${flap} counted`);
      }
      await monitorCheckAfter(s.deps.db, mnId, Date.now() + DOWN_MS);
      expect(await kindsOf(owner.id, mnId)).toEqual(['node_deployed', 'start_required', 'node_down', 'node_up']);
      expect([downMails().length, upMails().length]).toEqual([0, 0]);
      expect([liveOf('down').length, liveOf('up').length]).toEqual([1, 1]);

      // The clock passes the 30-minute window since the first down (its time in the node's
      // alert state moves back by the window; the monitor reads it at each check).
      const { last_down_at } = await alertState();
      await s.deps.db
        .updateTable('node_alerts')
        .set({ last_down_at: last_down_at! - 30 * 60_000 })
        .where('node_id', '=', nodeId)
        .execute();
      await monitorCheckAfter(s.deps.db, mnId, Date.now());
      expect((await alertState()).last_down_at).toBe(last_down_at! - 30 * 60_000);

      // The next outage is raised, and its message counts the flaps since the last alert.
      await outage(async () => (await count('node_down')) === 2, 'second down');
      const downs = (await rowsOf(owner.id, mnId)).filter((r) => r.kind === 'node_down');
      expect(downs.map((r) => r.message)).toEqual([
        `Your Dash node ${mnId} is down.`,
        `Your Dash node ${mnId} is down. It went down 3 more times since the last alert.`,
      ]);
      const mail = await smtp.waitFor(owner.email, /Your Dash node is down/);
      expect(mail.text).toContain('It went down 3 more times since the last alert.');
      await waitFor(async () => (await count('node_up')) === 2, 10_000, 'second back up');
      await smtp.waitFor(owner.email, /Your Dash node is back up/);
      await expect
        .poll(() => liveOf('down').map((e) => (e.payload as { message: string }).message))
        .toEqual(downs.map((r) => r.message));
      expect((await alertState()).flaps).toBe(0);
      expect(await kindsOf(owner.id, mnId)).toEqual([
        'node_deployed',
        'start_required',
        'node_down',
        'node_up',
        'node_down',
        'node_up',
      ]);
    } finally {
      await live.close();
    }
  }, 150_000);

  it('a muted node raises nothing; only its owner can mute it, and bad input changes nothing', async () => {
    const owner = await freshUser(s.deps, { prefix: 'muter' });
    const other = await freshUser(s.deps, { prefix: 'stranger' });
    const mnId = await deployedNode(owner);
    await waitFor(
      async () => (await kindsOf(owner.id, mnId)).includes('start_required'),
      10_000,
      'start required raised',
    );

    // Bad input and another user's call are refused and write nothing.
    expect((await post(owner, '/api/mute_node_alerts', { mn: mnId, muted: 'yes' })).status).toBe(400);
    const stranger = await post(other, '/api/mute_node_alerts', { mn: mnId, muted: true });
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Masternode not found.');
    expect((await get(owner, '/api/get_alert_settings')).muted_nodes).toEqual([]);

    expect(await post(owner, '/api/mute_node_alerts', { mn: mnId, muted: true })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await get(owner, '/api/get_alert_settings')).muted_nodes).toEqual([mnId]);
    const before = (await rowsOf(owner.id, mnId)).length;

    const stoppedAt = Date.now();
    expect((await simAdmin('DELETE', `/nodes/${mnId}`)).status).toBe(200);
    // The monitor did see the outage for longer than the threshold (its state says so)…
    const nodeId = (
      await s.deps.db.selectFrom('nodes').select('id').where('mn_id', '=', mnId).executeTakeFirstOrThrow()
    ).id;
    await waitFor(
      async () => {
        const a = await s.deps.db
          .selectFrom('node_alerts')
          .selectAll()
          .where('node_id', '=', nodeId)
          .executeTakeFirst();
        return (
          a !== undefined && a.failing_since !== null && a.down_raised === 2 && Date.now() - stoppedAt > DOWN_MS + 1000
        );
      },
      15_000,
      'outage past the threshold',
    );
    // …and raised nothing for it: no row, no mail.
    expect((await rowsOf(owner.id, mnId)).length).toBe(before);
    expect(smtp.inbox.filter((m) => m.to.includes(owner.email) && /down/.test(m.subject))).toEqual([]);

    // Unmuted before it returns: no "back up" is owed for a down the owner was never told of.
    expect(await post(owner, '/api/mute_node_alerts', { mn: mnId, muted: false })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await get(owner, '/api/get_alert_settings')).muted_nodes).toEqual([]);
    expect((await cli('fleet', 'restart', mnId)).code).toBe(0);
    await waitFor(
      async () =>
        (
          await s.deps.db
            .selectFrom('node_alerts')
            .select('failing_since')
            .where('node_id', '=', nodeId)
            .executeTakeFirst()
        )?.failing_since === null,
      15_000,
      'back',
    );
    // A "back up" is raised in the transaction that clears failing_since; one more check
    // committed after it is the witness that none followed late either.
    await monitorCheckAfter(s.deps.db, mnId, Date.now());
    expect((await rowsOf(owner.id, mnId)).length).toBe(before);
  }, 60_000);

  it('an outage while muted does not start the 30-minute window: the first down after unmuting is told, counting the muted one', async () => {
    const owner = await freshUser(s.deps, { prefix: 'mutedflap' });
    const mnId = await deployedNode(owner);
    await waitFor(
      async () => (await kindsOf(owner.id, mnId)).includes('start_required'),
      10_000,
      'start required raised',
    );
    const nodeId = (
      await s.deps.db.selectFrom('nodes').select('id').where('mn_id', '=', mnId).executeTakeFirstOrThrow()
    ).id;
    const alertState = () =>
      s.deps.db.selectFrom('node_alerts').selectAll().where('node_id', '=', nodeId).executeTakeFirstOrThrow();

    // Muted for maintenance: the node goes down past the threshold (untold) and comes back.
    expect(await post(owner, '/api/mute_node_alerts', { mn: mnId, muted: true })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await simAdmin('DELETE', `/nodes/${mnId}`)).status).toBe(200);
    await waitFor(async () => (await alertState()).down_raised === 2, 15_000, 'untold down');
    expect(await post(owner, '/api/mute_node_alerts', { mn: mnId, muted: false })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await cli('fleet', 'restart', mnId)).code).toBe(0);
    await waitFor(async () => (await alertState()).failing_since === null, 15_000, 'back');
    expect(await kindsOf(owner.id, mnId)).toEqual(['node_deployed', 'start_required']);

    // Unmuted, it really goes down a minute later: the owner is told after the threshold,
    // not 30 minutes after the down nobody was told of.
    const stoppedAt = Date.now();
    expect((await simAdmin('DELETE', `/nodes/${mnId}`)).status).toBe(200);
    const down = await waitFor(
      async () => (await rowsOf(owner.id, mnId)).find((r) => r.kind === 'node_down'),
      15_000,
      'node_down after unmuting',
    );
    expect(down.created_at - stoppedAt).toBeGreaterThanOrEqual(DOWN_MS - CHECK_SLACK_MS);
    expect(down.message).toBe(`Your Dash node ${mnId} is down. It went down 1 more time since the last alert.`);
    expect((await cli('fleet', 'restart', mnId)).code).toBe(0);
    await waitFor(async () => (await kindsOf(owner.id, mnId)).includes('node_up'), 15_000, 'node_up');
    expect(await kindsOf(owner.id, mnId)).toEqual(['node_deployed', 'start_required', 'node_down', 'node_up']);
  }, 60_000);
});

describe('rewards and network status, raised by the monitor', () => {
  it('raises the first reward once, then a bad network status once per change into it', async () => {
    const owner = await freshUser(s.deps, { prefix: 'rewarded' });
    const mnId = await deployedNode(owner);
    // Only a real node earns: this one is counted as real (its row says so) while the
    // simulator still answers for it. A simulated node's rewards: test/procedure/rewards.test.ts.
    await s.deps.db.updateTable('nodes').set({ simulated: 0 }).where('mn_id', '=', mnId).execute();
    expect((await simAdmin('POST', `/nodes/${mnId}/register`)).status).toBe(200);
    const first = await waitFor(
      async () => (await rowsOf(owner.id, mnId)).find((r) => r.kind === 'first_reward'),
      30_000,
      'first_reward',
    );
    expect(first.message).toMatch(new RegExp(`^Your Dash node ${mnId} received its first reward: [0-9.]+ DASH\\.$`));
    expect((await kindsOf(owner.id, mnId)).filter((k) => k === 'first_reward')).toHaveLength(1);
    expect(
      await s.deps.db.selectFrom('node_rewards').select('amount_atomic').where('mn_id', '=', mnId).execute(),
    ).not.toEqual([]);

    expect((await simAdmin('POST', `/nodes/${mnId}/force`, { status: 'POSE_BANNED' })).status).toBe(200);
    const banned = await waitFor(
      async () => (await rowsOf(owner.id, mnId)).find((r) => r.kind === 'network_status'),
      15_000,
      'network_status',
    );
    expect(banned.message).toBe(`Your Dash node ${mnId} was PoSe banned by the network.`);
    // Network checks later (each commits with whatever it raises), still one.
    let since = banned.created_at;
    for (let i = 0; i < 3; i++) since = await networkCheckAfter(s.deps.db, mnId, since);
    expect((await kindsOf(owner.id, mnId)).filter((k) => k === 'network_status')).toHaveLength(1);
    // Out of it and back into it: a second change, a second alert.
    expect((await simAdmin('POST', `/nodes/${mnId}/force`, { status: null })).status).toBe(200);
    const nodeId = (
      await s.deps.db.selectFrom('nodes').select('id').where('mn_id', '=', mnId).executeTakeFirstOrThrow()
    ).id;
    await waitFor(
      async () =>
        (
          await s.deps.db
            .selectFrom('node_alerts')
            .select('network_alerted')
            .where('node_id', '=', nodeId)
            .executeTakeFirst()
        )?.network_alerted === null,
      15_000,
      'ban cleared',
    );
    expect((await simAdmin('POST', `/nodes/${mnId}/force`, { status: 'POSE_BANNED' })).status).toBe(200);
    await waitFor(
      async () => (await kindsOf(owner.id, mnId)).filter((k) => k === 'network_status').length === 2,
      15_000,
      'second network_status',
    );
  }, 90_000);
});

describe('quiet hours', () => {
  it('refuses bad hours with a clear message and writes nothing', async () => {
    const u = await freshUser(s.deps, { prefix: 'quietbad' });
    for (const quiet_hours of [
      { start_hour: 3, end_hour: 3 },
      { start_hour: 24, end_hour: 2 },
      { start_hour: 1.5, end_hour: 2 },
      { start_hour: 1 },
    ]) {
      const r = await post(u, '/api/save_quiet_hours', { quiet_hours });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/must be a whole hour from 0 to 23 \(UTC\)|The start and end hour must differ/);
    }
    expect((await get(u, '/api/get_alert_settings')).quiet_hours).toBeNull();
  });

  it('writes the in-app rows during quiet hours but holds the mail and the alert channels, then sends one summary to each when they end', async () => {
    const u = await freshUser(s.deps, { prefix: 'quiet' });
    // Its address verification mail, out of the way: from here on only notification mail is counted.
    await smtp.waitFor(u.email, /Confirm your/);
    const added = await post(u, '/api/add_alert_channel', { type: 'webhook', url: `${receiver.url}/quiet` });
    expect(added.status).toBe(200);
    receiver.state.secret = added.body.secret;
    const before = receiver.received.length;
    const h = new Date().getUTCHours();
    // Quiet from this hour for two hours, so the test cannot run past their end.
    const hours = { start_hour: h, end_hour: (h + 2) % 24 };
    expect(await post(u, '/api/save_quiet_hours', { quiet_hours: hours })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await get(u, '/api/get_alert_settings')).quiet_hours).toEqual(hours);

    const mnId = await deployedNode(u);
    expect((await simAdmin('DELETE', `/nodes/${mnId}`)).status).toBe(200);
    await waitFor(async () => (await kindsOf(u.id, mnId)).includes('node_down'), 15_000, 'node_down');
    const rows = await rowsOf(u.id, mnId);
    expect(rows.map((r) => r.kind)).toEqual(['node_deployed', 'start_required', 'node_down']);
    // In-app rows as always; their mail and their channel deliveries are held.
    expect(rows.every((r) => r.mail_held === 1 && r.channels_held === 1)).toBe(true);
    // Mail and channel deliveries go out only through jobs queued in the raising transaction
    // (committed with the rows read above); held rows queued none, and no mail was written,
    // so nothing can arrive later: no wait needed to see that nothing came.
    for (const r of rows)
      expect(
        await s.deps.db
          .selectFrom('jobs')
          .select('key')
          .where((eb) => eb.or([eb('key', '=', `notify.mail:${r.id}`), eb('key', 'like', `notify.channel:${r.id}:%`)]))
          .execute(),
      ).toEqual([]);
    expect(
      await s.deps.db
        .selectFrom('mail_outbox')
        .select('subject')
        .where('to_addr', '=', u.email)
        .where('subject', 'not like', 'Confirm your%')
        .execute(),
    ).toEqual([]);
    expect(smtp.inbox.filter((m) => m.to.includes(u.email))).toEqual([]);
    expect(receiver.received.length).toBe(before);

    // One summary job, due at the end of the quiet hours.
    const jobs = await s.deps.db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'notify.quiet_summary')
      .where('key', 'like', `notify.quiet_summary:${u.id}:%`)
      .execute();
    expect(jobs).toHaveLength(1);
    const end = new Date(jobs[0].run_at);
    expect([end.getUTCHours(), end.getUTCMinutes(), end.getUTCSeconds()]).toEqual([hours.end_hour, 0, 0]);
    expect(jobs[0].run_at - Date.now()).toBeGreaterThan(0);
    expect(jobs[0].run_at - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);

    // The clock reaches the end of the quiet hours: the job comes due.
    await s.deps.db.updateTable('jobs').set({ run_at: Date.now() }).where('id', '=', jobs[0].id).execute();
    const summary = await smtp.waitFor(u.email, /While your quiet hours were on: 3 notifications/, 15_000);
    for (const r of rows) expect(summary.text).toContain(r.message);
    expect(summary.html).toContain('<ul>');
    // The webhook gets one signed summary message listing the three.
    await waitFor(async () => receiver.received.length > before, 15_000, 'channel summary');
    // Witness that no second delivery is on its way: every channel job of the user's
    // channel has run (a job's row goes when its delivery is done).
    const channel = await s.deps.db
      .selectFrom('alert_channels')
      .select('id')
      .where('user_id', '=', u.id)
      .executeTakeFirstOrThrow();
    await waitFor(
      async () =>
        (await s.deps.db.selectFrom('jobs').select('payload').where('name', 'like', 'notify.channel%').execute()).every(
          (j) => (JSON.parse(j.payload) as { channel_id: number }).channel_id !== channel.id,
        ),
      15_000,
      'channel jobs done',
    );
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].verdict).toBe('ok');
    const body = JSON.parse(got[0].body) as { kind: string; message: string };
    expect(body.kind).toBe('quiet_hours_summary');
    expect(body.message.split('\n')[0]).toBe('While your quiet hours were on: 3 notifications');
    for (const r of rows) expect(body.message).toContain(r.message);
    expect((await rowsOf(u.id, mnId)).every((r) => r.mail_held === 2 && r.channels_held === 2)).toBe(true);
    // Only the summaries: no mail or delivery of each.
    expect(smtp.inbox.filter((m) => m.to.includes(u.email))).toEqual([]);
    expect(receiver.received.length).toBe(before + 1);
  }, 60_000);
});
