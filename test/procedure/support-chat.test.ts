import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { SUPPORT_MESSAGE_MAX } from '../../src/shared/schemas/support';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { freshUser, fundedUser, outboxLink, type FreshUser } from '../support/users';

// The support chat: customers and visitors write, operators answer from the console.
// Every rule through the real procedures on a real SQLite file.

let d: Deps;
let operator: FreshUser;
const OPERATOR_IP = '198.51.100.7';
const ALWAYS = { from: 0, to: 1440 };
const NEVER = { from: 1440, to: 1440 };

beforeAll(async () => {
  d = await makeDeps();
  operator = await freshUser(d.deps, { prefix: 'supop', tfa: true });
  const stderr = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    expect(
      await runCli(['users', 'promote', operator.username], { DATA_DIR: d.deps.config.dataDir }, { out: () => {} }),
    ).toBe(0);
  } finally {
    process.stderr.write = stderr;
  }
});
afterAll(() => d?.close());
beforeEach(() => {
  d.deps.config.supportHours = ALWAYS;
});

const op = () => d.caller(operator.token, OPERATOR_IP).console.support;
const messages = async () =>
  Number(
    (
      await d.db
        .selectFrom('support_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const notices = (userId: number, kind: string) =>
  d.db
    .selectFrom('notifications')
    .select(['message', 'link'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .execute();
const eventsFor = (userId: number) =>
  d.db.selectFrom('events').select('type').where('user_id', '=', userId).where('type', '=', 'support_chat').execute();

describe('hours', () => {
  it('says whether support answers now, and its hours', async () => {
    const guest = d.caller(null).support;
    expect(await guest.status()).toEqual({ open: true, hours: '00:00–24:00 UTC' });
    d.deps.config.supportHours = { from: 7 * 60, to: 21 * 60 };
    const hour = new Date().getUTCHours();
    expect(await guest.status()).toEqual({ open: hour >= 7 && hour < 21, hours: '07:00–21:00 UTC' });
  });
});

describe('a customer', () => {
  let alice: FreshUser;
  beforeAll(async () => {
    alice = await freshUser(d.deps, { prefix: 'supalice' });
  });

  it('has no conversation until they write; then the operators see it unread and are told once', async () => {
    const me = d.caller(alice.token, '203.0.113.1').support;
    expect(await me.thread()).toEqual({ messages: [], unread: 0 });
    expect(await op().of_customer({ user_id: alice.id })).toBeNull();
    const t = await me.send({ body: '  My node shows DOWN since this morning.  ' });
    expect(t.messages).toEqual([
      {
        id: expect.any(Number),
        from: 'you',
        body: 'My node shows DOWN since this morning.',
        at: expect.any(String),
        outside_hours: false,
      },
    ]);
    await me.send({ body: 'It is the Dash one.' });
    const inbox = await op().inbox();
    const mine = inbox.conversations.find((c) => c.user_id === alice.id)!;
    expect(mine).toMatchObject({ who: alice.username, visitor: false, last_message: 'It is the Dash one.', unread: 2 });
    expect(inbox.unread_total).toBeGreaterThanOrEqual(2);
    // One notice for the first unread message, not one per line.
    expect(await notices(operator.id, 'support_message')).toEqual([
      {
        message: `New support message from ${alice.username}: My node shows DOWN since this morning.`,
        link: `/console/support?c=${mine.id}`,
      },
    ]);
    // The operators' inboxes and the customer's other tabs hear of each message live.
    expect((await eventsFor(operator.id)).length).toBe(2);
    expect((await eventsFor(alice.id)).length).toBe(2);
    // The customer's console page shows the conversation.
    expect((await op().of_customer({ user_id: alice.id }))!.messages.map((m) => m.body)).toEqual([
      'My node shows DOWN since this morning.',
      'It is the Dash one.',
    ]);
  });

  it('refuses an empty, an overlong or a malformed message with a clear error, writing nothing', async () => {
    const me = d.caller(alice.token, '203.0.113.1').support;
    const before = await messages();
    expect((await rejection(me.send({ body: '   ' }))).message).toMatch(/Type a message first/);
    expect((await rejection(me.send({ body: 'x'.repeat(SUPPORT_MESSAGE_MAX + 1) }))).message).toMatch(
      /at most 2,000 characters/,
    );
    expect((await rejection(me.send({ body: 'hi', to: 'everyone' } as never))).code).toBe('BAD_REQUEST');
    expect((await rejection(d.caller(null).support.send({ body: 'hi' }))).code).toBe('UNAUTHORIZED');
    expect(await messages()).toBe(before);
  });

  it('gets the answer live in hours, with no mail; the answer is in the operator log', async () => {
    const c = (await op().inbox()).conversations.find((x) => x.user_id === alice.id)!;
    expect((await op().conversation({ id: c.id })).messages).toHaveLength(2);
    await op().read({ id: c.id });
    expect((await op().inbox()).conversations.find((x) => x.id === c.id)!.unread).toBe(0);
    expect(await op().reply({ id: c.id, body: 'Restarting it now: it will be back in a minute.' })).toEqual({
      emailed: false,
    });
    const t = await d.caller(alice.token).support.thread();
    expect(t.unread).toBe(1);
    expect(t.messages.at(-1)).toMatchObject({
      from: 'support',
      body: 'Restarting it now: it will be back in a minute.',
    });
    expect(await notices(alice.id, 'support_reply')).toEqual([]);
    const line = await d.db
      .selectFrom('operator_log')
      .selectAll()
      .where('action', '=', 'support reply')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(line).toMatchObject({ actor: 'operator', actor_user_id: operator.id, address: OPERATOR_IP });
    expect(JSON.parse(line.detail)).toEqual({ conversation: c.id, user_id: alice.id, visitor: false, emailed: false });
    // The text of the answer is the conversation's, not the log's.
    expect(line.detail).not.toContain('Restarting');
    await d.caller(alice.token).support.read();
    expect((await d.caller(alice.token).support.thread()).unread).toBe(0);
    expect((await op().conversation({ id: c.id })).messages.at(-1)).toMatchObject({
      from: 'support',
      operator: operator.username,
    });
  });

  it('outside support hours leaves a message that is answered by notification and mail', async () => {
    d.deps.config.supportHours = NEVER;
    const bob = await freshUser(d.deps, { prefix: 'supbob' });
    const t = await d.caller(bob.token).support.send({ body: 'Are you there at night?' });
    expect(t.messages[0].outside_hours).toBe(true);
    const c = (await op().inbox()).conversations.find((x) => x.user_id === bob.id)!;
    expect(await op().reply({ id: c.id, body: 'We are now. Your node is fine.' })).toEqual({ emailed: true });
    expect(await notices(bob.id, 'support_reply')).toEqual([
      { message: 'Support answered your chat message: We are now. Your node is fine.', link: '/dashboard?chat=open' },
    ]);
    const job = await d.db
      .selectFrom('jobs')
      .select('name')
      .where('name', '=', 'notify.mail')
      .where('payload', 'like', '%notification_id%')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(job).toBeDefined();
  });

  it('100 messages at once from 100 addresses: exactly the per-conversation limit gets through', async () => {
    const carol = await freshUser(d.deps, { prefix: 'supcarol' });
    const answers = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => d.caller(carol.token, `127.0.${i}.9`).support.send({ body: `line ${i}` })),
    );
    const ok = answers.filter((a) => a.status === 'fulfilled').length;
    expect(ok).toBe(20);
    for (const a of answers)
      if (a.status === 'rejected')
        expect(a.reason).toMatchObject({
          code: 'TOO_MANY_REQUESTS',
          message: 'You are sending messages too fast. Please wait a minute and try again.',
        });
    expect((await d.caller(carol.token).support.thread()).messages).toHaveLength(20);
  });
});

describe('a visitor', () => {
  it('leaves an email and a message, keeps the conversation by its token, and gets the answer by mail', async () => {
    const guest = d.caller(null, '192.0.2.50').support;
    const { token } = await guest.visitor_start({ email: 'Visitor@Example.test', body: 'Do you host PIVX?' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Only the token's hash is stored.
    const row = await d.db
      .selectFrom('support_conversations')
      .selectAll()
      .where('visitor_email', '=', 'Visitor@Example.test')
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    await guest.visitor_send({ token, body: 'Dedicated plan.' });
    expect((await guest.visitor_thread({ token })).messages.map((m) => [m.from, m.body])).toEqual([
      ['you', 'Do you host PIVX?'],
      ['you', 'Dedicated plan.'],
    ]);
    // Another token, or none, opens nothing.
    expect(
      (await rejection(guest.visitor_thread({ token: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') })))
        .message,
    ).toBe('This conversation was not found. Please start a new one.');
    expect((await rejection(guest.visitor_send({ token: 'x', body: 'hi' }))).code).toBe('NOT_FOUND');
    expect((await rejection(guest.visitor_start({ email: 'not-an-email', body: 'hi' }))).message).toMatch(
      /valid email/,
    );

    const c = (await op().inbox()).conversations.find((x) => x.id === row.id)!;
    expect(c).toMatchObject({ who: 'Visitor@Example.test', visitor: true, user_id: null, unread: 2 });
    expect(await op().reply({ id: row.id, body: 'Yes, PIVX on the dedicated plan.' })).toEqual({ emailed: true });
    const mail = await d.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_addr', '=', 'Visitor@Example.test')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Nodekeep support answered your message');
    expect(mail.text).toContain('Yes, PIVX on the dedicated plan.');
    // The visitor's live channel hears of it; no account's does.
    expect(
      await d.db
        .selectFrom('events')
        .select('user_id')
        .where('type', '=', 'support_chat')
        .where('user_id', '=', -row.id)
        .execute(),
    ).toHaveLength(3);
    expect((await guest.visitor_thread({ token })).unread).toBe(1);
    await guest.visitor_read({ token });
    expect((await guest.visitor_thread({ token })).unread).toBe(0);
  });

  it('100 new conversations at once from one address: five are opened', async () => {
    const before = Number(
      (
        await d.db
          .selectFrom('support_conversations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const answers = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        d.caller(null, '192.0.2.77').support.visitor_start({ email: `v${i}@example.test`, body: 'hello' }),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(5);
    for (const a of answers)
      if (a.status === 'rejected')
        expect(a.reason).toMatchObject({
          code: 'TOO_MANY_REQUESTS',
          message: 'We cannot open a new conversation right now. Please try again later, or write to us by email.',
        });
    const after = Number(
      (
        await d.db
          .selectFrom('support_conversations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after - before).toBe(5);
  });
});

describe('a customer and the visitor limits', () => {
  it('writes from an address whose visitors used up every per-address limit: no visitor limit counts a customer', async () => {
    const ip = '192.0.2.88';
    const guest = () => d.caller(null, ip).support;
    // Five conversations (the address's hourly allowance) and 60 messages in all (its 10-minute allowance).
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++)
      tokens.push((await guest().visitor_start({ email: `office${i}@example.test`, body: 'hello' })).token);
    for (const token of tokens) for (let i = 0; i < 11; i++) await guest().visitor_send({ token, body: `line ${i}` });
    expect(await rejection(guest().visitor_start({ email: 'office9@example.test', body: 'hello' }))).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    expect(await rejection(guest().visitor_send({ token: tokens[0], body: 'one more' }))).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'You are sending messages too fast. Please wait a minute and try again.',
    });
    // A customer behind the same address writes as usual: their account's own limit (20 a minute) is the only one.
    const dave = await freshUser(d.deps, { prefix: 'supdave' });
    for (let i = 0; i < 20; i++) await d.caller(dave.token, ip).support.send({ body: `dave ${i}` });
    expect(await rejection(d.caller(dave.token, ip).support.send({ body: 'dave 21' }))).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    expect((await d.caller(dave.token, ip).support.thread()).messages).toHaveLength(20);
  });
});

describe('operators', () => {
  it('are told once while the inbox has unread messages, however many customers write', async () => {
    // Everything read first.
    for (const c of (await op().inbox()).conversations) if (c.unread) await op().read({ id: c.id });
    const before = (await notices(operator.id, 'support_message')).length;
    const writers = await Promise.all([1, 2, 3].map((i) => freshUser(d.deps, { prefix: `supw${i}` })));
    for (const w of writers) await d.caller(w.token).support.send({ body: `hello from ${w.username}` });
    expect((await notices(operator.id, 'support_message')).length).toBe(before + 1);
    expect((await op().inbox()).unread_total).toBe(3);
    // Read: the next message is news again.
    for (const c of (await op().inbox()).conversations) if (c.unread) await op().read({ id: c.id });
    await d.caller(writers[0].token).support.send({ body: 'one more thing' });
    expect((await notices(operator.id, 'support_message')).length).toBe(before + 2);
  });
});

describe('the console', () => {
  it('pages the inbox: past the first page, older conversations are one "show more" away, never out of reach', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, (_, i) => freshUser(d.deps, { prefix: `page${i}` })));
    for (const u of users) await d.caller(u.token, '203.0.113.9').support.send({ body: `hello from ${u.username}` });
    const total = (await op().inbox({ limit: 5000 })).conversations.length;
    expect(total).toBeGreaterThanOrEqual(4);
    const first = await op().inbox({ limit: total - 1 });
    expect(first).toMatchObject({ more: true });
    expect(first.conversations).toHaveLength(total - 1);
    const all = await op().inbox({ limit: total });
    expect(all.more).toBe(false);
    for (const u of users) expect(all.conversations.some((c) => c.user_id === u.id)).toBe(true);
    expect((await op().inbox()).conversations.length).toBe(Math.min(total, 100));
    await expect(op().inbox({ limit: 0 })).rejects.toThrow();
  });

  it('answers nothing for a conversation that does not exist, and refuses an empty answer', async () => {
    expect((await rejection(op().reply({ id: 999_999, body: 'hi' }))).message).toBe('No such conversation.');
    const c = (await op().inbox()).conversations[0];
    const before = await messages();
    expect((await rejection(op().reply({ id: c.id, body: '' }))).code).toBe('BAD_REQUEST');
    expect(await messages()).toBe(before);
  });
});

// Last: these use up the hourly rate of new conversations shared by every test above.
describe('an account not yet verified and the hourly rate of new conversations', () => {
  const heldOf = async (userId: number) =>
    (
      await d.db
        .selectFrom('support_conversations')
        .select('held')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).held;
  const inboxHas = async (userId: number) => (await op().inbox()).conversations.some((c) => c.user_id === userId);

  it('its first message takes from the rate; past it, held until a password reset (which verifies) or the link releases it', async () => {
    // Leave one new conversation in this hour's rate.
    while (d.deps.limiter.hit('supportConversationsTotal', 'all'));
    d.deps.limiter.refund('supportConversationsTotal', 'all');
    const first = await freshUser(d.deps, { prefix: 'supunv1', verified: false });
    const second = await freshUser(d.deps, { prefix: 'supunv2', verified: false });
    expect((await d.caller(first.token).support.send({ body: 'hello' })).held).toBeUndefined();
    expect(await inboxHas(first.id)).toBe(true);
    // The first took the last one: the second is held, and told where its link went.
    expect((await d.caller(second.token).support.send({ body: 'hello too' })).held).toEqual({
      email: second.email,
      expired: false,
    });
    expect(await heldOf(second.id)).toBe(1);
    expect(await inboxHas(second.id)).toBe(false);
    // A password reset proves the address: it verifies, and releases the conversation.
    await d.caller(null).auth.recover({ email: second.email });
    await d
      .caller(null)
      .auth.reset({ token: await outboxLink(d.db, second.email, '/reset?token='), password: 'another horse 2' });
    expect(await heldOf(second.id)).toBe(0);
    expect((await op().inbox()).conversations.find((c) => c.user_id === second.id)).toMatchObject({ unread: 1 });
  });

  it('a verified customer or one who has paid is never held, with the rate used up', async () => {
    expect(d.deps.limiter.blocked('supportConversationsTotal', 'all')).toBe(true);
    const verified = await freshUser(d.deps, { prefix: 'supver' });
    const paid = await fundedUser(d.deps, { prefix: 'suppaid', verified: false });
    for (const u of [verified, paid]) {
      expect((await d.caller(u.token).support.send({ body: 'hi' })).held).toBeUndefined();
      expect(await inboxHas(u.id)).toBe(true);
    }
  });
});
