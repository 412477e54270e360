import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { limits } from '../../src/server/guards/rate-limit';
import { SUPPORT_MESSAGES } from '../../src/server/support/service';
import { snapshot } from '../support/db-snapshot';
import { byStatus, loopback, requestFrom, type Answer } from '../support/from-ip';
import { startSmtp } from '../support/smtp';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { callerFor, freshUser, outboxLink, type FreshUser } from '../support/users';

// The visitor chat's hourly rate of new conversations, attacked as issue 21 did: about 40
// addresses use up the 200 an hour, then a real visitor writes. Their conversation is taken
// but held until they confirm their email from a mailed link (real SMTP); the link lets it
// into the operators' inbox once. Signed-in customers are never held back by a visitor
// limit; the confirmation mail cannot be used to flood a mailbox; bad, expired and reused
// links change nothing. Everything over real HTTP, each client from its own 127.x.y.z.

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;
let operator: FreshUser;
let customer: FreshUser;

beforeAll(async () => {
  smtp = await startSmtp();
  // Support answers around the clock: the test does not depend on the hour it runs.
  s = await startTestServer({ SMTP_URL: smtp.url, SUPPORT_HOURS_UTC: '00:00-24:00' });
  operator = await freshUser(s.deps, { prefix: 'capop', tfa: true });
  customer = await freshUser(s.deps, { prefix: 'capcust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: s.dataDir }, { out: () => {} })).toBe(0);

  // The attack: 40 addresses open 5 conversations each, at once; all are taken as before.
  const flood = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      start(loopback(Math.floor(i / 5), 100), { email: `flood${i}@spam.test`, body: `spam ${i}` }),
    ),
  );
  expect(byStatus(flood)).toEqual({ 200: 200 });
  expect(flood.filter((a) => a.body.result.data.held === true)).toEqual([]);
  expect(limits.supportConversationsTotal.max).toBe(200);
});
afterAll(async () => {
  await stopTestServer(s);
  await smtp.close();
});

const trpc = (ip: string, name: string, body: unknown, token?: string) =>
  requestFrom(ip, `${s.url}/trpc/support.${name}`, { body, token });
const start = (ip: string, input: { email: string; body: string }) => trpc(ip, 'visitor_start', input);
const confirm = (ip: string, token: string) => trpc(ip, 'visitor_confirm', { token });
const thread = async (token: string) =>
  (
    await requestFrom(
      '127.0.0.1',
      `${s.url}/trpc/support.visitor_thread?input=${encodeURIComponent(JSON.stringify({ token }))}`,
    )
  ).body.result.data;
const errorOf = (a: Answer) => ({ status: a.status, message: a.body.error?.message as string });

const op = () => callerFor(s.deps)(operator.token).console.support;
/** The operator reads every conversation: the next new message is news again. */
async function readInbox() {
  for (;;) {
    const unread = (await op().inbox()).conversations.filter((c) => c.unread);
    if (!unread.length) return;
    for (const c of unread) await op().read({ id: c.id });
  }
}
const notices = async () =>
  (
    await s.deps.db
      .selectFrom('notifications')
      .select('message')
      .where('user_id', '=', operator.id)
      .where('kind', '=', 'support_message')
      .execute()
  ).length;
const mailsTo = async (to: string) =>
  (await s.deps.db.selectFrom('mail_outbox').select('id').where('to_addr', '=', to).execute()).length;
const conversationsOf = async (email: string) =>
  s.deps.db.selectFrom('support_conversations').selectAll().where('visitor_email', '=', email).execute();
/** The database once every queued mail has gone out (the mail job marks its row after sending): what a request changed shows. */
async function settled(): Promise<Record<string, unknown>> {
  const pending = async () =>
    (await s.deps.db.selectFrom('mail_outbox').select('id').where('status', '=', 'pending').execute()).length;
  await expect.poll(pending, { timeout: 20_000 }).toBe(0);
  return JSON.parse(await snapshot(s.deps.db)) as Record<string, unknown>;
}
const tokenIn = (link: string) => {
  const u = new URL(link);
  expect(u.origin + u.pathname).toBe(`${s.url}/support/confirm`);
  return u.searchParams.get('t')!;
};

describe('past the hourly rate of new visitor conversations', () => {
  it('a real visitor is not refused: the conversation is held, the mailed link lets it into the inbox, once', async () => {
    await readInbox();
    const before = await notices();
    const ip = loopback(0, 1000);
    const a = await start(ip, { email: 'Real.Visitor@example.test', body: 'Can I host a Dash masternode with you?' });
    expect(a.status).toBe(200);
    expect(a.body.result.data.held).toBe(true);
    const token = a.body.result.data.token as string;
    // The widget says so, and the visitor may add to it meanwhile.
    expect((await trpc(ip, 'visitor_send', { token, body: 'On the dedicated plan.' })).status).toBe(200);
    expect(await thread(token)).toMatchObject({
      held: { email: 'Real.Visitor@example.test', expired: false },
      messages: [{ body: 'Can I host a Dash masternode with you?' }, { body: 'On the dedicated plan.' }],
    });

    // Held: not in the inbox, nothing unread, no notice to the operators.
    const [row] = await conversationsOf('Real.Visitor@example.test');
    expect(row).toMatchObject({ held: 1, confirmed_at: null, operator_unread: 0 });
    expect(row.confirm_token_hash).toMatch(/^[0-9a-f]{64}$/);
    const inbox = await op().inbox();
    expect(inbox.conversations.map((c) => c.id)).not.toContain(row.id);
    expect(inbox.unread_total).toBe(0);
    expect(await notices()).toBe(before);

    const mail = await smtp.waitFor('Real.Visitor@example.test', /^Confirm your email to reach Nodekeep support$/);
    const link = /https?:\/\/\S+/.exec(mail.text)![0];
    const confirmToken = tokenIn(link);
    // The link's token is stored only as its hash.
    expect(row.confirm_token_hash).not.toContain(confirmToken);
    // Following the link opens the site's page, which confirms.
    expect((await requestFrom(loopback(1, 1000), link)).status).toBe(200);
    const c = await confirm(loopback(1, 1000), confirmToken);
    expect(c.status).toBe(200);
    expect(c.body.result.data).toEqual({ status: 'confirmed' });

    const after = await op().inbox();
    expect(after.conversations.find((x) => x.id === row.id)).toMatchObject({
      who: 'Real.Visitor@example.test',
      visitor: true,
      unread: 2,
      last_message: 'On the dedicated plan.',
    });
    expect(await notices()).toBe(before + 1);
    expect((await thread(token)).held).toBeUndefined();
    // The operator answers as to any visitor.
    expect(await op().reply({ id: row.id, body: 'Yes: pick Dash on the pricing page.' })).toEqual({ emailed: true });
    await smtp.waitFor('Real.Visitor@example.test', /support answered/);

    // The link again: it is done, nothing changes.
    const again = await settled();
    const reused = await confirm(loopback(2, 1000), confirmToken);
    expect(reused.body.result.data).toEqual({ status: 'already_confirmed' });
    expect(await settled()).toEqual(again);
  });

  it('a signed-in customer is never held back by a visitor limit, even from an address that used up every one', async () => {
    const ip = loopback(0, 2000);
    // The address uses up its visitor limits: 3 held conversations (their mails), then 60 messages over them.
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await start(ip, { email: `shared${i}@office.test`, body: 'hello' });
      expect(a.body.result.data.held).toBe(true);
      tokens.push(a.body.result.data.token);
    }
    const sends = await Promise.all(
      tokens.flatMap((token) =>
        Array.from({ length: 19 }, (_, i) => trpc(ip, 'visitor_send', { token, body: `more ${i}` })),
      ),
    );
    expect(byStatus(sends)).toEqual({ 200: 57 });
    expect(errorOf(await trpc(ip, 'visitor_send', { token: tokens[0], body: 'one more' }))).toEqual({
      status: 429,
      message: SUPPORT_MESSAGES.tooFast,
    });
    expect(errorOf(await start(ip, { email: 'shared9@office.test', body: 'hello' })).status).toBe(429);

    // The customer on the same address: counted per account only (20 a minute).
    const mine = await Promise.all(
      Array.from({ length: 25 }, (_, i) => trpc(ip, 'send', { body: `customer line ${i}` }, customer.token)),
    );
    expect(byStatus(mine)).toEqual({ 200: 20, 429: 5 });
    // A customer's conversation is their account's: never held, straight to the inbox.
    const conv = (await op().inbox()).conversations.find((c) => c.user_id === customer.id);
    expect(conv).toMatchObject({ who: customer.username, unread: 20 });
  });

  it('100 attempts at once to mail one address, from 100 addresses: 3 mails; from one address with 100 emails: 3 mails', async () => {
    const target = 'victim@mailbox.test';
    const many = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        start(loopback(i, 3000), { email: i % 2 ? target : target.toUpperCase(), body: `bomb ${i}` }),
      ),
    );
    expect(byStatus(many)).toEqual({ 200: 3, 429: 97 });
    for (const a of many.filter((x) => x.status === 429))
      expect(errorOf(a).message).toBe(SUPPORT_MESSAGES.tooManyConfirmMails);
    const rows = await s.deps.db
      .selectFrom('support_conversations')
      .select('id')
      .where((eb) => eb('visitor_email', '=', target).or('visitor_email', '=', target.toUpperCase()))
      .execute();
    expect(rows).toHaveLength(3);
    expect((await mailsTo(target)) + (await mailsTo(target.toUpperCase()))).toBe(3);

    const ip = loopback(0, 3200);
    const fromOne = await Promise.all(
      Array.from({ length: 100 }, (_, i) => start(ip, { email: `spread${i}@mailbox.test`, body: 'hi' })),
    );
    expect(byStatus(fromOne)).toEqual({ 200: 3, 429: 97 });
    const mails = await s.deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_addr', 'like', 'spread%@mailbox.test')
      .execute();
    expect(mails).toHaveLength(3);
  });

  it('unverified accounts are no way around the hold: 40 of them, 2 per address, reach no inbox; verifying one lets its conversation in', async () => {
    await readInbox();
    const before = await notices();
    const call = (ip: string, name: string, body: unknown, token?: string) =>
      requestFrom(ip, `${s.url}/trpc/${name}`, { body, token });
    // As the attacker did: each address registers two accounts with an undeliverable email, logs in unverified, writes.
    const stamp = Date.now().toString(36);
    const accounts = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const ip = loopback(Math.floor(i / 2), 5000);
        const username = `unv${i}x${stamp}`;
        const email = `${username}@nowhere.invalid`;
        expect((await call(ip, 'auth.register', { username, email, password: 'correct horse 1' })).status).toBe(200);
        const login = await call(ip, 'auth.login', { username, password: 'correct horse 1' });
        const token = login.body.result.data.auth_token as string;
        expect(token).toBeTruthy();
        const sent = await call(ip, 'support.send', { body: `buy cheap ${i}` }, token);
        expect(sent.status).toBe(200);
        return { ip, username, email, token, thread: sent.body.result.data };
      }),
    );
    // Taken, and the widget says what to do; but held: no inbox, nothing unread, no notice.
    for (const a of accounts)
      expect(a.thread).toMatchObject({
        held: { email: a.email, expired: false },
        messages: [{ body: expect.stringMatching(/^buy cheap/) }],
      });
    const ids = new Set(accounts.map((a) => a.username));
    const inbox = await op().inbox();
    expect(inbox.conversations.filter((c) => ids.has(c.who))).toEqual([]);
    expect(inbox.unread_total).toBe(0);
    expect(await notices()).toBe(before);
    const rows = await s.deps.db
      .selectFrom('support_conversations as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.held', 'c.operator_unread'])
      .where('u.email', 'like', `%x${stamp}@nowhere.invalid`)
      .execute();
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.held === 1 && r.operator_unread === 0)).toBe(true);

    // One account's owner follows its verification link: its conversation reaches the inbox, the operators are told once.
    const [first] = accounts;
    expect((await call(first.ip, 'support.send', { body: 'and one more thing' }, first.token)).status).toBe(200);
    const hash = await outboxLink(s.deps.db, first.email, '/verify?h=');
    expect((await call(loopback(0, 5100), 'auth.verify', { hash })).status).toBe(200);
    const after = await op().inbox();
    expect(after.conversations.find((c) => c.who === first.username)).toMatchObject({
      unread: 2,
      last_message: 'and one more thing',
    });
    expect(after.conversations.filter((c) => ids.has(c.who))).toHaveLength(1);
    expect(await notices()).toBe(before + 1);
    const mine = await requestFrom(first.ip, `${s.url}/trpc/support.thread`, { method: 'GET', token: first.token });
    expect(mine.body.result.data.held).toBeUndefined();
    // Verified, it is a customer like any other: never held again, straight to the inbox.
    await readInbox();
    expect((await call(first.ip, 'support.send', { body: 'thanks' }, first.token)).status).toBe(200);
    expect((await op().inbox()).conversations.find((c) => c.who === first.username)).toMatchObject({ unread: 1 });
  });

  it('plus-addresses are one mailbox: 100 addresses mailing victim+N get 3 confirmation mails in all', async () => {
    const spellings = (i: number) =>
      [`victim+${i}@plus.test`, `Victim+x${i}@PLUS.test`, `vic.tim+${i}@gmail.com`, `victim+${i}@googlemail.com`][
        i % 4
      ];
    const many = await Promise.all(
      Array.from({ length: 100 }, (_, i) => start(loopback(i, 6000), { email: spellings(i), body: `bomb ${i}` })),
    );
    // Two mailboxes: victim@plus.test and victim@gmail.com, 3 mails each.
    expect(byStatus(many)).toEqual({ 200: 6, 429: 94 });
    for (const a of many.filter((x) => x.status === 429))
      expect(errorOf(a).message).toBe(SUPPORT_MESSAGES.tooManyConfirmMails);
    const mails = await s.deps.db
      .selectFrom('mail_outbox')
      .select('to_addr')
      .where((eb) => eb.or([eb('to_addr', 'like', '%@plus.test'), eb('to_addr', 'like', '%mail.com')]))
      .execute();
    expect(mails).toHaveLength(6);
  });

  it('bad, expired and reused links change nothing and say so; 100 uses of one link at once confirm it once', async () => {
    // 100 made-up tokens from 100 addresses.
    const before = await settled();
    const bad = await Promise.all(
      Array.from({ length: 100 }, (_, i) => confirm(loopback(i, 4000), `made-up-token-${i}`)),
    );
    expect(byStatus(bad)).toEqual({ 404: 100 });
    for (const a of bad) expect(errorOf(a).message).toBe(SUPPORT_MESSAGES.confirmInvalid);
    expect(errorOf(await confirm(loopback(0, 4000), '')).status).toBe(400);
    expect(await settled()).toEqual(before);

    // An expired link (its 24 hours are over): refused, the conversation stays held, the widget says so.
    const old = await start(loopback(0, 4200), { email: 'late@example.test', body: 'hello?' });
    const oldLink = tokenIn(
      /https?:\/\/\S+/.exec((await smtp.waitFor('late@example.test', /^Confirm your email/)).text)![0],
    );
    await s.deps.db
      .updateTable('support_conversations')
      .set({ confirm_expires_at: Date.now() - 1 })
      .where('visitor_email', '=', 'late@example.test')
      .execute();
    const frozen = await settled();
    expect(errorOf(await confirm(loopback(1, 4200), oldLink))).toEqual({
      status: 400,
      message: SUPPORT_MESSAGES.confirmExpired,
    });
    expect(await settled()).toEqual(frozen);
    expect((await thread(old.body.result.data.token)).held).toEqual({ email: 'late@example.test', expired: true });

    // One good link used 100 times at once: confirmed once, one notice, the rest told it is done.
    await readInbox();
    const noticesBefore = await notices();
    await start(loopback(0, 4400), { email: 'eager@example.test', body: 'hello!' });
    const link = tokenIn(
      /https?:\/\/\S+/.exec((await smtp.waitFor('eager@example.test', /^Confirm your email/)).text)![0],
    );
    const all = await Promise.all(Array.from({ length: 100 }, (_, i) => confirm(loopback(i, 4500), link)));
    expect(byStatus(all)).toEqual({ 200: 100 });
    const statuses = all.map((a) => a.body.result.data.status as string);
    expect(statuses.filter((x) => x === 'confirmed')).toHaveLength(1);
    expect(statuses.filter((x) => x === 'already_confirmed')).toHaveLength(99);
    expect(await notices()).toBe(noticesBefore + 1);
    expect((await op().inbox()).conversations.filter((c) => c.who === 'eager@example.test')).toHaveLength(1);
  });
});
