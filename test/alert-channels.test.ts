import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findJobs } from '../src/server/jobs/queue';
import { afterRaise, raise } from '../src/server/notifications/raise';
import { startFakeDiscord } from './support/fake-discord';
import { startFakeTelegram } from './support/fake-telegram';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { loopback, requestFrom } from './support/from-ip';
import { callerFor, freshUser } from './support/users';
import { waitFor } from './support/wait';
import { startWebhookReceiver } from './support/webhook-receiver';

const BOT_TOKEN = '123456789:AAEfakeTokenForTheFakeTelegram_x';
const DISCORD = { id: '112233445566778899', token: 'fakeDiscordWebhookToken_abcdefghij' };

let s: TestServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  telegram = await startFakeTelegram({ tokens: [BOT_TOKEN], chats: ['424242', '@nodekeep_alerts'] });
  discord = await startFakeDiscord({ webhooks: [DISCORD] });
  s = await startTestServer({
    // The tests' receivers are on loopback; production refuses it (see "bad input" below).
    ALERT_WEBHOOK_ALLOW_PRIVATE: 'true',
    TELEGRAM_API_BASE: telegram.url,
    DISCORD_WEBHOOK_BASE: discord.base,
    ALERT_CHANNEL_MAX_FAILURES: '3',
    ALERT_RETRY_SECONDS: '0.05',
  });
});
afterAll(async () => {
  await stopTestServer(s);
  await Promise.all([receiver?.close(), telegram?.close(), discord?.close()]);
});

const api = (path: string, token: string, body?: unknown) =>
  fetch(s.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

const channels = async (token: string) =>
  (await api('/api/get_alert_channels', token)).body.channels as {
    id: number;
    type: string;
    target: string;
    enabled: boolean;
    failures: number;
    disabled_reason: string | null;
  }[];

/** 127.0.0.1 inside IPv6: NAT64 (both prefixes), 6to4, IPv4-compatible, RFC 6145 and Teredo (client inverted). */
const embeddedLoopbackUrls = (port: number | string) =>
  [
    '64:ff9b::127.0.0.1',
    '64:ff9b:1::7f00:1',
    '2002:7f00:1::1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
  ].map((a) => `http://[${a}]:${port}/`);

/** This machine's own interface addresses (link-local ones need a zone id, which URLs cannot carry). */
const ownAddressUrls = (port: number | string) =>
  Object.values(os.networkInterfaces())
    .flatMap((l) => l ?? [])
    .filter((i) => !i.address.toLowerCase().startsWith('fe80'))
    .map((i) => (i.family === 'IPv6' ? `http://[${i.address}]:${port}/` : `http://${i.address}:${port}/`));

async function raiseDown(userId: number, mnId: string) {
  await raise(s.deps.db, userId, 'node_down', { mn_id: mnId, coin: 'Dash' });
  afterRaise(s.deps);
}

describe('generic webhook against a real receiver', () => {
  it('delivers a signed JSON alert; the receiver checks signature and timestamp; a replay later and an altered body are refused', async () => {
    const alice = await freshUser(s.deps, { prefix: 'whalice' });
    const added = await api('/api/add_alert_channel', alice.token, { type: 'webhook', url: `${receiver.url}/hook` });
    expect(added.status).toBe(200);
    expect(added.body.secret).toMatch(/^whsec_/);
    receiver.state.secret = added.body.secret;
    // Shown once: the list never carries it, and the stored value is sealed.
    const listed = await api('/api/get_alert_channels', alice.token);
    expect(JSON.stringify(listed.body)).not.toContain(added.body.secret);
    const row = await s.deps.db
      .selectFrom('alert_channels')
      .selectAll()
      .where('id', '=', added.body.channel.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(added.body.secret);
    expect(row.secret.startsWith('v1:')).toBe(true);

    const before = receiver.received.length;
    await raiseDown(alice.id, 'mn-wh1');
    const got = await waitFor(
      async () => receiver.received.slice(before).find((r) => r.body.includes('mn-wh1')),
      10_000,
      'webhook delivery',
    );
    expect(got.verdict).toBe('ok');
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      kind: 'node_down',
      message: 'Your Dash node mn-wh1 is down.',
      link: `${s.url}/dashboard/masternode/mn-wh1`,
      node: 'mn-wh1',
      time: expect.any(String),
    });
    expect(Math.abs(Date.parse(body.time) - Date.now())).toBeLessThan(60_000);
    expect(got.headers['nodekeep-delivery']).toMatch(/^\d+$/);
    expect(String(got.headers['nodekeep-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    // The same delivery sent again now passes the check (it is genuine and fresh) ...
    expect((await receiver.replay(got)).status).toBe(204);
    // ... but replayed 10 minutes later it is refused for its timestamp.
    receiver.state.clockOffsetS = 600;
    try {
      expect(await receiver.replay(got)).toEqual({ status: 401, text: 'stale' });
    } finally {
      receiver.state.clockOffsetS = 0;
    }
    // The signature covers the body: one changed character fails it.
    expect(await receiver.replay(got, { body: got.body.replace('mn-wh1', 'mn-wh2') })).toEqual({
      status: 401,
      text: 'bad signature',
    });
    // And the timestamp: a fresh t with the old v1 fails (an old capture cannot be made fresh).
    const v1 = String(got.headers['nodekeep-signature']).split('v1=')[1];
    expect(await receiver.replay(got, { signature: `t=${Math.floor(Date.now() / 1000) + 1000},v1=${v1}` })).toEqual({
      status: 401,
      text: 'bad signature',
    });
    // A receiver with another secret refuses it.
    receiver.state.secret = 'whsec_someone_else';
    expect(await receiver.replay(got)).toEqual({ status: 401, text: 'bad signature' });
  });

  it('"send test" answers success, and the receiver\'s error when it fails', async () => {
    const u = await freshUser(s.deps, { prefix: 'whtest' });
    const added = await api('/api/add_alert_channel', u.token, { type: 'webhook', url: `${receiver.url}/hook` });
    receiver.state.secret = added.body.secret;
    const ok = await api('/api/test_alert_channel', u.token, { id: added.body.channel.id });
    expect(ok.body).toEqual({ success: true, message: 'Test alert sent.' });
    expect(receiver.received.at(-1)!.verdict).toBe('ok');
    expect(JSON.parse(receiver.received.at(-1)!.body).kind).toBe('test');

    receiver.state.failWith = { status: 500, text: 'database is down' };
    try {
      const bad = await api('/api/test_alert_channel', u.token, { id: added.body.channel.id });
      expect(bad.body.success).toBe(false);
      expect(bad.body.message).toBe(
        'The test alert was not delivered: the receiver answered HTTP 500: database is down',
      );
    } finally {
      receiver.state.failWith = null;
    }
    // A test counts no failure against the channel.
    expect((await channels(u.token))[0]).toMatchObject({ enabled: true, failures: 0 });
  });

  it('sends at most 10 test alerts per account in 10 minutes, when 100 arrive at once from 100 addresses', async () => {
    const u = await freshUser(s.deps, { prefix: 'whflood' });
    const added = await api('/api/add_alert_channel', u.token, { type: 'webhook', url: `${receiver.url}/flood` });
    receiver.state.secret = added.body.secret;
    const before = receiver.received.length;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        requestFrom(loopback(i, 9000), `${s.url}/api/test_alert_channel`, {
          body: { id: added.body.channel.id },
          token: u.token,
        }),
      ),
    );
    const sent = answers.filter((a) => a.status === 200);
    expect(sent.map((a) => a.body)).toEqual(Array(10).fill({ success: true, message: 'Test alert sent.' }));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(90);
    expect(refused[0].body).toEqual({
      success: false,
      message: 'Too many test alerts. Please wait a few minutes and try again.',
    });
    expect(receiver.received.length - before).toBe(10);
  });

  it('retries a failing delivery with backoff, turns the channel off after 3 failures in a row and tells the owner in-app', async () => {
    const u = await freshUser(s.deps, { prefix: 'whfail' });
    const added = await api('/api/add_alert_channel', u.token, { type: 'webhook', url: `${receiver.url}/hook` });
    receiver.state.secret = added.body.secret;
    receiver.state.failWith = { status: 503, text: 'try later' };
    try {
      const before = receiver.received.length;
      await raiseDown(u.id, 'mn-fail1');
      const notice = await waitFor(
        async () => {
          const list = (await api('/api/get_notifications', u.token)).body.notifications as {
            message: string;
            link: string;
          }[];
          return list.find((n) => n.message.includes('was turned off'));
        },
        15_000,
        'turned-off notice',
      );
      expect(notice.message).toBe(
        `Your alert channel webhook ${receiver.url}/hook was turned off after 3 failed deliveries in a row (last error: the receiver answered HTTP 503: try later). Fix it and turn it on again.`,
      );
      expect(notice.link).toBe('/dashboard/notifications');
      const tries = receiver.received.slice(before).filter((r) => r.body.includes('mn-fail1'));
      // The same delivery (one id) three times, each validly signed, then no more.
      expect(tries).toHaveLength(3);
      expect(new Set(tries.map((t) => t.headers['nodekeep-delivery'])).size).toBe(1);
      expect(tries.every((t) => t.verdict === 'ok')).toBe(true);
      const [c] = await channels(u.token);
      expect(c).toMatchObject({ enabled: false, failures: 3, disabled_reason: '3 failed deliveries in a row' });
      // The job ended (no retry left queued for the turned-off channel).
      const jobs = await findJobs(s.deps.db, 'notify.channel');
      expect(jobs.filter((j) => j.payload.includes(`"channel_id":${c.id}`) && j.state === 'queued')).toEqual([]);

      // A channel that is off gets nothing.
      receiver.state.failWith = null;
      const mark = receiver.received.length;
      await raiseDown(u.id, 'mn-fail2');
      // A delivery goes out only through a job queued in the raising transaction (committed
      // by now): no job of this channel left and nothing received means none was queued, so
      // none can come later (a job's row goes only after its delivery).
      const fail2 = await s.deps.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', u.id)
        .where('params', 'like', '%"mn-fail2"%')
        .executeTakeFirstOrThrow();
      const offJobs = await findJobs(s.deps.db, 'notify.channel');
      expect(offJobs.filter((j) => j.key.startsWith(`notify.channel:${fail2.id}:`))).toEqual([]);
      expect(receiver.received.slice(mark).filter((r) => r.body.includes('mn-fail2'))).toEqual([]);

      // Turned on again, it starts from 0 failures and delivers.
      const on = await api('/api/save_alert_channel', u.token, { id: c.id, enabled: true });
      expect(on.body.channel).toMatchObject({ enabled: true, failures: 0, disabled_reason: null });
      await raiseDown(u.id, 'mn-fail3');
      await waitFor(
        async () => receiver.received.find((r) => r.body.includes('mn-fail3') && r.verdict === 'ok'),
        10_000,
        'delivery after turning on',
      );
      // A later witness too: mn-fail3 got through, mn-fail2 still never did.
      expect(receiver.received.slice(mark).filter((r) => r.body.includes('mn-fail2'))).toEqual([]);
    } finally {
      receiver.state.failWith = null;
    }
  });
});

describe('Telegram and Discord through their fakes', () => {
  it('Telegram: an alert reaches the chat through sendMessage; a wrong token is reported by "send test"', async () => {
    const u = await freshUser(s.deps, { prefix: 'tg' });
    const added = await api('/api/add_alert_channel', u.token, {
      type: 'telegram',
      bot_token: BOT_TOKEN,
      chat_id: '424242',
    });
    expect(added.status).toBe(200);
    expect(added.body.secret).toBeUndefined();
    expect(added.body.channel).toMatchObject({ type: 'telegram', target: '424242', enabled: true });
    expect(JSON.stringify(await channels(u.token))).not.toContain(BOT_TOKEN);

    await raiseDown(u.id, 'mn-tg1');
    const m = await waitFor(
      async () => telegram.messages.find((x) => x.text.includes('mn-tg1')),
      10_000,
      'telegram message',
    );
    expect(m).toEqual({
      token: BOT_TOKEN,
      chat_id: '424242',
      text: `Your Dash node mn-tg1 is down.\n${s.url}/dashboard/masternode/mn-tg1`,
    });
    expect((await api('/api/test_alert_channel', u.token, { id: added.body.channel.id })).body).toEqual({
      success: true,
      message: 'Test alert sent.',
    });

    const wrong = await api('/api/add_alert_channel', u.token, {
      type: 'telegram',
      bot_token: '987654321:AAEwrongTokenWrongTokenWrong',
      chat_id: '424242',
    });
    expect((await api('/api/test_alert_channel', u.token, { id: wrong.body.channel.id })).body).toEqual({
      success: false,
      message: 'The test alert was not delivered: Telegram answered 401: Unauthorized',
    });
    const noChat = await api('/api/add_alert_channel', u.token, {
      type: 'telegram',
      bot_token: BOT_TOKEN,
      chat_id: '777',
    });
    expect((await api('/api/test_alert_channel', u.token, { id: noChat.body.channel.id })).body.message).toBe(
      'The test alert was not delivered: Telegram answered 400: Bad Request: chat not found',
    );
    // The bot token never reaches the log.
    expect(s.logLines.join('\n')).not.toContain(BOT_TOKEN);
  });

  it('Discord: an alert is posted as {content}; only the webhook id is shown again; an unknown webhook is reported', async () => {
    const u = await freshUser(s.deps, { prefix: 'dc' });
    const url = `${discord.base}/${DISCORD.id}/${DISCORD.token}`;
    const added = await api('/api/add_alert_channel', u.token, { type: 'discord', url });
    expect(added.body.channel).toMatchObject({ type: 'discord', target: DISCORD.id });
    expect(JSON.stringify(await channels(u.token))).not.toContain(DISCORD.token);

    await raiseDown(u.id, 'mn-dc1');
    const m = await waitFor(
      async () => discord.messages.find((x) => x.content.includes('mn-dc1')),
      10_000,
      'discord message',
    );
    expect(m.content).toBe(`Your Dash node mn-dc1 is down.\n${s.url}/dashboard/masternode/mn-dc1`);
    expect(m.body.allowed_mentions).toEqual({ parse: [] });

    const gone = await api('/api/add_alert_channel', u.token, {
      type: 'discord',
      url: `${discord.base}/999999999999/${DISCORD.token}`,
    });
    expect((await api('/api/test_alert_channel', u.token, { id: gone.body.channel.id })).body).toEqual({
      success: false,
      message: 'The test alert was not delivered: Discord answered 404: Unknown Webhook',
    });
    expect(s.logLines.join('\n')).not.toContain(DISCORD.token);
  });
});

describe('bad input and ownership', () => {
  it('refuses bad channels with a clear message and writes nothing', async () => {
    const u = await freshUser(s.deps, { prefix: 'badch' });
    const cases: [unknown, RegExp][] = [
      [{ type: 'sms', url: 'https://example.com' }, /webhook, telegram or discord/],
      [{ type: 'webhook', url: 'ftp://example.com/x' }, /Only http:\/\/ and https:\/\/ URLs are allowed/],
      [{ type: 'webhook', url: 'not a url' }, /Enter a full URL/],
      [{ type: 'webhook', url: '' }, /Enter the URL/],
      [{ type: 'webhook', url: 'https://user:pw@example.com/x' }, /must not contain a user name or password/],
      [{ type: 'webhook' }, /url/],
      [{ type: 'webhook', url: 'https://example.com/x', extra: 1 }, /extra/],
      [{ type: 'telegram', bot_token: 'nope', chat_id: '1' }, /The bot token looks like/],
      [{ type: 'telegram', bot_token: BOT_TOKEN, chat_id: 'drop table' }, /The chat id is a number/],
      [
        { type: 'discord', url: 'https://evil.example.com/api/webhooks/1234567/abcdefghijklmnopqrstuvwxyz' },
        /Enter a Discord webhook URL/,
      ],
      [{ type: 'discord', url: `${discord.base}/notanid/x` }, /Enter a Discord webhook URL/],
    ];
    for (const [input, message] of cases) {
      const r = await api('/api/add_alert_channel', u.token, input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.message, JSON.stringify(input)).toMatch(message);
    }
    expect(await channels(u.token)).toEqual([]);
  });

  it('without ALERT_WEBHOOK_ALLOW_PRIVATE, loopback and private addresses are refused', async () => {
    const u = await freshUser(s.deps, { prefix: 'priv' });
    const strict = callerFor({ ...s.deps, config: { ...s.deps.config, alertWebhookAllowPrivate: false } });
    const urls = [
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://10.1.2.3/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://[fd00::1]/x',
      'http://[::ffff:127.0.0.1]/x',
    ];
    for (const url of [...urls, ...embeddedLoopbackUrls(9), ...ownAddressUrls(9)]) {
      await expect(strict(u.token).alertChannels.add_alert_channel({ type: 'webhook', url }), url).rejects.toThrow(
        'The URL must point to a public address, not a local or private network.',
      );
    }
    expect(await channels(u.token)).toEqual([]);
  });

  it('a webhook saved while the filter was off is not delivered to an address that embeds loopback or is our own', async () => {
    // Saved through the permissive test server; delivered under the production policy. Had a
    // connection been tried, the test network guard would have recorded it and failed the test.
    const strict = callerFor({ ...s.deps, config: { ...s.deps.config, alertWebhookAllowPrivate: false } });
    const port = new URL(receiver.url).port;
    const urls = [...embeddedLoopbackUrls(port), ...ownAddressUrls(port)];
    for (let i = 0; i < urls.length; i += 10) {
      const u = await freshUser(s.deps, { prefix: 'embed' });
      for (const url of urls.slice(i, i + 10)) {
        const added = await api('/api/add_alert_channel', u.token, { type: 'webhook', url: `${url}hook` });
        expect(added.status, url).toBe(200);
        const sent = await strict(u.token).alertChannels.test_alert_channel({ id: added.body.channel.id });
        expect(sent, url).toEqual({
          success: false,
          message:
            'The test alert was not delivered: The URL must point to a public address, not a local or private network.',
        });
      }
    }
  });

  it("one user can neither see, change, test nor delete another's channel", async () => {
    const owner = await freshUser(s.deps, { prefix: 'own' });
    const other = await freshUser(s.deps, { prefix: 'oth' });
    const added = await api('/api/add_alert_channel', owner.token, { type: 'webhook', url: `${receiver.url}/hook` });
    const id = added.body.channel.id;
    expect(await channels(other.token)).toEqual([]);
    for (const [path, body] of [
      ['/api/save_alert_channel', { id, enabled: false }],
      ['/api/delete_alert_channel', { id }],
      ['/api/test_alert_channel', { id }],
    ] as const) {
      const r = await api(path, other.token, body);
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ success: false, message: 'This alert channel does not exist.' });
    }
    expect(await channels(owner.token)).toMatchObject([{ id, enabled: true }]);
    // The owner can turn it off and delete it.
    expect((await api('/api/save_alert_channel', owner.token, { id, enabled: false })).body.channel.enabled).toBe(
      false,
    );
    expect((await api('/api/delete_alert_channel', owner.token, { id })).body).toEqual({ success: true });
    expect(await channels(owner.token)).toEqual([]);
  });
});
