import {
  SUPPORT_CONFIRM_PATH,
  type SupportConversation,
  type SupportInbox,
  type SupportStatus,
  type SupportThread,
  type SupportVisitorConfirmOutput,
} from '../../shared/schemas/support';
import { findUserById, operatorIds } from '../auth/users';
import { hashToken, newToken } from '../auth/tokens';
import { isPaying } from '../billing/paying';
import type { Config } from '../kernel/config';
import type { Context } from '../rpc/context';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import { insertEvent } from '../events/outbox';
import type { LimitName } from '../guards/rate-limit';
import { enqueueMail } from '../mail/outbox';
import { visitorConfirmMail } from '../mail/templates';
import { afterRaise, raise } from '../notifications/raise';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { canonicalMailbox } from './mailbox';
import * as q from './queries';

type Ctx = Pick<Context, 'db' | 'config' | 'hub' | 'mail' | 'limiter' | 'req'>;

export const SUPPORT_MESSAGES = {
  tooFast: 'You are sending messages too fast. Please wait a minute and try again.',
  tooManyChats: 'We cannot open a new conversation right now. Please try again later, or write to us by email.',
  visitorGone: 'This conversation was not found. Please start a new one.',
  noConversation: 'No such conversation.',
  tooManyConfirmMails:
    'We have already sent several confirmation links to this email, or from your network. Confirm your email from one of those mails, or try again later.',
  confirmInvalid:
    'This confirmation link is not valid. Open the link from our latest mail in full, or write to us again from the chat on our site.',
  confirmExpired:
    'This confirmation link has expired, so your message did not reach our team. Write to us again from the chat on our site: we will send you a new link.',
} as const;

/** How long a held conversation's confirmation link works; unconfirmed, it is then pruned. */
export const CONFIRM_TTL_MS = 24 * 60 * 60_000;

const hm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export function supportStatus(hours: Config['supportHours'], now = Date.now()): SupportStatus {
  const minute = Math.floor((now % 86_400_000) / 60_000);
  return { open: minute >= hours.from && minute < hours.to, hours: `${hm(hours.from)}–${hm(hours.to)} UTC` };
}

/** One line of a message for a notification: whitespace folded, long text cut. */
export const excerpt = (body: string) => {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
};

/**
 * A visitor's conversation is delivered on a live channel of its own: its events carry
 * the conversation's id negated as their user id, which no account has (src/server/support/README.md).
 */
export const visitorChannel = (conversationId: number) => -conversationId;

/**
 * Takes a slot of every limit or of none: the first one used up hands the others back
 * and refuses with its message. Returns what hands them all back.
 */
function take(ctx: Ctx, limits: Array<[LimitName, string | number, string]>): () => void {
  const taken: Array<[LimitName, string | number]> = [];
  const giveBack = () => {
    for (const [n, k] of taken) ctx.limiter.refund(n, k);
  };
  for (const [name, key, message] of limits) {
    if (!ctx.limiter.hit(name, key)) {
      giveBack();
      fail('TOO_MANY_REQUESTS', message);
    }
    taken.push([name, key]);
  }
  return giveBack;
}

type ConversationRow = NonNullable<Awaited<ReturnType<typeof q.conversationById>>>;

const toThread = (
  rows: Awaited<ReturnType<typeof q.messagesOf>>,
  unread: number,
  c?: ConversationRow,
): SupportThread => ({
  messages: rows.map((m) => ({
    id: m.id,
    from: m.from_operator ? 'support' : 'you',
    body: m.body,
    at: new Date(m.created_at).toISOString(),
    outside_hours: m.outside_hours === 1,
  })),
  unread,
  ...(c?.held ? { held: { email: c.visitor_email!, expired: (c.confirm_expires_at ?? 0) <= Date.now() } } : {}),
});

/** A customer's thread; `held`: it waits for them to verify `email` (their account's link). */
export async function customerThread(db: DB, user: { id: number; email: string }): Promise<SupportThread> {
  const c = await q.conversationOfUser(db, user.id);
  if (!c) return { messages: [], unread: 0 };
  return {
    ...toThread(await q.messagesOf(db, c.id), c.customer_unread),
    ...(c.held ? { held: { email: user.email, expired: false } } : {}),
  };
}

export async function visitorThread(db: DB, token: string): Promise<SupportThread> {
  const c = await q.conversationByToken(db, hashToken(token));
  if (!c) fail('NOT_FOUND', SUPPORT_MESSAGES.visitorGone);
  return toThread(await q.messagesOf(db, c.id), c.customer_unread, c);
}

/** The visitor's conversation id for their token, or a clear NOT_FOUND. */
export async function visitorConversationId(db: DB, token: string): Promise<number> {
  const c = await q.conversationByToken(db, hashToken(token));
  if (!c) fail('NOT_FOUND', SUPPORT_MESSAGES.visitorGone);
  return c.id;
}

/**
 * Tells the operators of new messages in a conversation: every inbox refreshes live, and a
 * notification goes out when the inbox had nothing unread, not for every message: a chatty
 * customer, or a crowd of visitors, is one notice (and one mail) until the inbox is read.
 * `notify` is read before the messages count as unread.
 */
async function tellOperators(
  trx: DB,
  notify: boolean,
  conversationId: number,
  channel: number,
  who: string,
  body: string,
): Promise<void> {
  for (const op of await operatorIds(trx)) {
    if (op === channel) continue;
    await insertEvent(trx, op, 'support_chat', {});
    if (notify)
      await raise(trx, op, 'support_message', { who, excerpt: excerpt(body), conversation_id: conversationId });
  }
}

/**
 * A customer's or visitor's message, in one transaction with its live events: to the
 * writer's own channel (their other tabs) and to the operators (`tellOperators`). A held
 * conversation's message reaches the writer's channel only: the operators hear of it when
 * the visitor confirms their email.
 */
async function postFromCustomer(
  ctx: Ctx,
  conversation: { id: number },
  channel: number,
  who: string,
  body: string,
): Promise<void> {
  const now = Date.now();
  const outside = !supportStatus(ctx.config.supportHours, now).open;
  await ctx.db.transaction().execute(async (trx) => {
    // Read in the transaction: a confirmation may have released it since the caller looked.
    const held = (await q.conversationById(trx, conversation.id))?.held === 1;
    const notify = !held && (await q.unreadTotal(trx)) === 0; // read from the unread conversations' index
    await q.insertMessage(trx, {
      conversation_id: conversation.id,
      from_operator: false,
      operator_id: null,
      body,
      outside_hours: outside,
      created_at: now,
    });
    await insertEvent(trx, channel, 'support_chat', {});
    if (!held) await tellOperators(trx, notify, conversation.id, channel, who, body);
  });
  afterRaise(ctx);
}

/** A customer beyond visitor limits: their email is verified, or they have paid money in. */
async function trusted(db: DB, user: { id: number; verified_at: number | null }): Promise<boolean> {
  return user.verified_at !== null || (await isPaying(db, user.id));
}

/**
 * A signed-in customer's message. A verified (or paying) customer is counted per account
 * only: no visitor limit applies (the per-address ones are shared with whoever else writes
 * from that address, and a crowd of visitors must not lock a customer out). An account
 * nobody has verified costs nothing to make, so its first message counts against the
 * visitors' hourly rate of new conversations and, past it, is held until the account's
 * email is verified (src/server/support/README.md).
 */
export async function sendAsCustomer(
  ctx: Ctx,
  user: { id: number; username: string; email: string; verified_at: number | null },
  body: string,
): Promise<SupportThread> {
  take(ctx, [['supportMessagesPerConversation', `u${user.id}`, SUPPORT_MESSAGES.tooFast]]);
  const isTrusted = await trusted(ctx.db, user);
  const existing = await q.conversationOfUser(ctx.db, user.id);
  if (!existing) {
    const hold = !isTrusted && !ctx.limiter.hit('supportConversationsTotal', 'all');
    const { row, created } = await q.ensureUserConversation(ctx.db, user.id, Date.now(), hold);
    // Another request opened it meanwhile: this one used no new conversation.
    if (!created && !isTrusted && !hold) ctx.limiter.refund('supportConversationsTotal', 'all');
    await postFromCustomer(ctx, row, user.id, user.username, body);
  } else {
    // Verified (or paid) by a path that did not release it: it joins the inbox now.
    if (existing.held && isTrusted) await releaseAccountConversation(ctx, user.id);
    await postFromCustomer(ctx, existing, user.id, user.username, body);
  }
  return customerThread(ctx.db, user);
}

/**
 * An account's held conversation joins the inbox, in the caller's transaction: its
 * messages become unread and the operators are told as for a new message. Once: false
 * when there was nothing held. Also run when the account's email is verified (its mailed
 * link, or a password reset), in that transaction: the composition root registers it on
 * auth's verified hook; auth runs afterRaise once it commits.
 */
export async function releaseAccountHeld(trx: DB, userId: number): Promise<boolean> {
  const c = await q.conversationOfUser(trx, userId);
  if (!c?.held) return false;
  const notify = (await q.unreadTotal(trx)) === 0;
  if (!(await q.releaseHeld(trx, c.id, Date.now()))) return false;
  const body = (await q.messagesOf(trx, c.id, 1))[0]?.body ?? '';
  const who = (await findUserById(trx, userId))?.username ?? `#${c.id}`;
  await insertEvent(trx, userId, 'support_chat', {});
  await tellOperators(trx, notify, c.id, userId, who, body);
  return true;
}

async function releaseAccountConversation(ctx: Ctx, userId: number): Promise<void> {
  if (await ctx.db.transaction().execute((trx) => releaseAccountHeld(trx, userId))) afterRaise(ctx);
}

/**
 * A visitor's first message opens their conversation. Past the hourly rate of new visitor
 * conversations (over all addresses) it is still taken, but held: it reaches the inbox
 * once the visitor follows the link mailed to the email they left (src/server/support/README.md). Those mails are limited per email and per address.
 */
export async function startAsVisitor(ctx: Ctx, email: string, body: string): Promise<{ token: string; held: boolean }> {
  const ip = ctx.req.ip;
  const giveBack = take(ctx, [
    ['supportConversationsPerIp', ip, SUPPORT_MESSAGES.tooManyChats],
    ['supportMessagesPerIp', ip, SUPPORT_MESSAGES.tooFast],
  ]);
  const held = !ctx.limiter.hit('supportConversationsTotal', 'all');
  if (held) {
    try {
      take(ctx, [
        ['supportConfirmMailPerIp', ip, SUPPORT_MESSAGES.tooManyConfirmMails],
        // Per mailbox: `victim+1@…`, `victim+2@…` are one inbox to flood.
        ['supportConfirmMailPerEmail', canonicalMailbox(email), SUPPORT_MESSAGES.tooManyConfirmMails],
      ]);
    } catch (err) {
      giveBack(); // nothing opened: the address's slots were not used
      throw err;
    }
  }
  // The browser keeps the token; the database only its hash, so a leaked database opens no conversation.
  const token = newToken(24);
  const now = Date.now();
  if (!held) {
    const id = await q.insertVisitorConversation(ctx.db, email, hashToken(token), now);
    await postFromCustomer(ctx, { id }, visitorChannel(id), email, body);
    return { token, held: false };
  }
  const confirm = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    const id = await q.insertVisitorConversation(trx, email, hashToken(token), now, {
      confirmHash: hashToken(confirm),
      expiresAt: now + CONFIRM_TTL_MS,
    });
    await q.insertMessage(trx, {
      conversation_id: id,
      from_operator: false,
      operator_id: null,
      body,
      outside_hours: !supportStatus(ctx.config.supportHours, now).open,
      created_at: now,
    });
    await enqueueMail(trx, visitorConfirmMail(email, `${ctx.config.publicUrl}${SUPPORT_CONFIRM_PATH}?t=${confirm}`));
  });
  void ctx.mail.kick();
  return { token, held: true };
}

/**
 * The visitor followed the mailed link: their held conversation joins the inbox and the
 * operators are told, as if its messages had just arrived. Once only: a second use, or
 * many at once, changes nothing and says it is done; a bad or expired link changes nothing.
 */
export async function confirmVisitor(ctx: Ctx, confirmToken: string): Promise<SupportVisitorConfirmOutput> {
  const c = await q.conversationByConfirmHash(ctx.db, hashToken(confirmToken));
  if (!c) fail('NOT_FOUND', SUPPORT_MESSAGES.confirmInvalid);
  if (!c.held) return { status: 'already_confirmed' };
  const now = Date.now();
  if ((c.confirm_expires_at ?? 0) <= now) fail('BAD_REQUEST', SUPPORT_MESSAGES.confirmExpired);
  const released = await ctx.db.transaction().execute(async (trx) => {
    const notify = (await q.unreadTotal(trx)) === 0;
    if (!(await q.releaseHeld(trx, c.id, now))) return false;
    const body = (await q.messagesOf(trx, c.id, 1))[0]?.body ?? '';
    await insertEvent(trx, visitorChannel(c.id), 'support_chat', {});
    await tellOperators(trx, notify, c.id, visitorChannel(c.id), c.visitor_email!, body);
    return true;
  });
  if (!released) {
    // Another request confirmed it meanwhile, or the link expired between the two reads.
    if ((await q.conversationById(ctx.db, c.id))?.held) fail('BAD_REQUEST', SUPPORT_MESSAGES.confirmExpired);
    return { status: 'already_confirmed' };
  }
  afterRaise(ctx);
  return { status: 'confirmed' };
}

export async function sendAsVisitor(ctx: Ctx, token: string, body: string): Promise<SupportThread> {
  const c = await q.conversationByToken(ctx.db, hashToken(token));
  if (!c) fail('NOT_FOUND', SUPPORT_MESSAGES.visitorGone);
  take(ctx, [
    ['supportMessagesPerConversation', `v${c.id}`, SUPPORT_MESSAGES.tooFast],
    ['supportMessagesPerIp', ctx.req.ip, SUPPORT_MESSAGES.tooFast],
  ]);
  await postFromCustomer(ctx, c, visitorChannel(c.id), c.visitor_email!, body);
  return visitorThread(ctx.db, token);
}

/** The customer or visitor has seen the answers (the widget is open). */
export async function customerRead(db: DB, conversationId: number | undefined, channel: number): Promise<void> {
  if (conversationId === undefined) return;
  if (await q.markRead(db, conversationId, 'customer')) await insertEvent(db, channel, 'support_chat', {});
}

export async function userConversationId(db: DB, userId: number): Promise<number | undefined> {
  return (await q.conversationOfUser(db, userId))?.id;
}

// The operator's side.

export async function supportInbox(db: DB, limit: number): Promise<SupportInbox> {
  // One row past the page says whether there are more.
  const rows = await q.inbox(db, limit + 1);
  return {
    more: rows.length > limit,
    conversations: rows.slice(0, limit).map((r) => ({
      id: r.id,
      who: r.username ?? r.visitor_email ?? `#${r.id}`,
      user_id: r.user_id,
      visitor: r.user_id === null,
      last_message: excerpt(r.last_message ?? ''),
      last_at: new Date(r.last_message_at).toISOString(),
      unread: r.operator_unread,
    })),
    unread_total: await q.unreadTotal(db),
  };
}

async function toConversation(
  db: DB,
  c: NonNullable<Awaited<ReturnType<typeof q.conversationById>>>,
): Promise<SupportConversation> {
  const user = c.user_id === null ? undefined : await findUserById(db, c.user_id);
  return {
    id: c.id,
    who: user?.username ?? c.visitor_email ?? `#${c.id}`,
    user_id: c.user_id,
    email: user?.email ?? c.visitor_email,
    messages: (await q.messagesOf(db, c.id)).map((m) => ({
      id: m.id,
      from: m.from_operator ? 'support' : 'you',
      body: m.body,
      at: new Date(m.created_at).toISOString(),
      outside_hours: m.outside_hours === 1,
      operator: m.operator,
    })),
  };
}

export async function supportConversation(db: DB, id: number): Promise<SupportConversation> {
  const c = await q.conversationById(db, id);
  if (!c) fail('NOT_FOUND', SUPPORT_MESSAGES.noConversation);
  return toConversation(db, c);
}

/** A customer's conversation for their console page; null until they write. */
export async function conversationOfCustomer(db: DB, userId: number): Promise<SupportConversation | null> {
  const c = await q.conversationOfUser(db, userId);
  return c ? toConversation(db, c) : null;
}

export async function operatorRead(db: DB, id: number): Promise<void> {
  await q.markRead(db, id, 'operator');
}

/**
 * The operator's answer. It reaches the chat live; a visitor's answer also goes to the
 * email they left (they may have closed the page), and the answer to a customer's
 * message left outside support hours is a notification, mailed unless they turned
 * support mail off. Written to the operator log (without the text).
 */
export async function replyAsOperator(
  ctx: Ctx,
  by: OperatorActor,
  id: number,
  body: string,
): Promise<{ emailed: boolean }> {
  const c = await q.conversationById(ctx.db, id);
  if (!c) fail('NOT_FOUND', SUPPORT_MESSAGES.noConversation);
  const now = Date.now();
  const emailed = await ctx.db.transaction().execute(async (trx) => {
    const last = await q.lastCustomerMessage(trx, id);
    await q.insertMessage(trx, {
      conversation_id: id,
      from_operator: true,
      operator_id: by.kind === 'operator' ? by.userId : null,
      body,
      outside_hours: false,
      created_at: now,
    });
    await insertEvent(trx, c.user_id ?? visitorChannel(id), 'support_chat', {});
    for (const op of await operatorIds(trx)) await insertEvent(trx, op, 'support_chat', {});
    let mailed = false;
    if (c.user_id === null) {
      await enqueueMail(trx, {
        to: c.visitor_email!,
        subject: 'Nodekeep support answered your message',
        text: `Hello,\n\nNodekeep support answered your chat message:\n\n${body}\n\nYou can reply in the chat on ${ctx.config.publicUrl} (from the same browser), or start a new conversation there.\n`,
      });
      mailed = true;
    } else if (last?.outside_hours) {
      await raise(trx, c.user_id, 'support_reply', { excerpt: excerpt(body) });
      mailed = true;
    }
    await logOperatorAction(trx, by, 'support reply', {
      conversation: id,
      user_id: c.user_id,
      visitor: c.user_id === null,
      emailed: mailed,
    });
    return mailed;
  });
  afterRaise(ctx);
  return { emailed };
}

/** What waits for the operators in the support inbox: conversations and messages unread. */
export async function supportUnread(db: DB): Promise<{ conversations: number; messages: number }> {
  return { conversations: await q.unreadConversationCount(db), messages: await q.unreadTotal(db) };
}
