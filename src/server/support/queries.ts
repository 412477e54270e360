import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { usernameOf } from '../auth/users';

type Q = Kysely<Database>;

export function conversationOfUser(db: Q, userId: number) {
  return db.selectFrom('support_conversations').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function conversationByToken(db: Q, tokenHash: string) {
  return db.selectFrom('support_conversations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function conversationById(db: Q, id: number) {
  return db.selectFrom('support_conversations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A customer's conversation, made on their first message (one per customer: the UNIQUE
 * user_id); `held`: kept out of the inbox until the account's email is verified.
 * `created`: this call made it.
 */
export async function ensureUserConversation(db: Q, userId: number, now: number, held = false) {
  const r = await db
    .insertInto('support_conversations')
    .values({ user_id: userId, created_at: now, last_message_at: now, held: held ? 1 : 0 })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return { row: (await conversationOfUser(db, userId))!, created: Number(r.numInsertedOrUpdatedRows ?? 0n) > 0 };
}

/** A visitor's conversation; `hold`: kept out of the inbox until the mailed link (its token's hash) is followed. */
export async function insertVisitorConversation(
  db: Q,
  email: string,
  tokenHash: string,
  now: number,
  hold?: { confirmHash: string; expiresAt: number },
): Promise<number> {
  const r = await db
    .insertInto('support_conversations')
    .values({
      visitor_email: email,
      token_hash: tokenHash,
      created_at: now,
      last_message_at: now,
      ...(hold ? { held: 1, confirm_token_hash: hold.confirmHash, confirm_expires_at: hold.expiresAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function conversationByConfirmHash(db: Q, confirmHash: string) {
  return db
    .selectFrom('support_conversations')
    .selectAll()
    .where('confirm_token_hash', '=', confirmHash)
    .executeTakeFirst();
}

/**
 * Lets a held conversation into the inbox, once: only the call that finds it still held
 * and its link unexpired changes it (true). Its visitor's messages become unread then.
 * An account's conversation has no link (its email's verification releases it).
 */
export async function releaseHeld(db: Q, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('support_conversations')
    .set({
      held: 0,
      confirmed_at: now,
      operator_unread: sql`(SELECT count(*) FROM support_messages WHERE conversation_id = ${id} AND from_operator = 0)`,
    })
    .where('id', '=', id)
    .where('held', '=', 1)
    .where((eb) => eb.or([eb('confirm_expires_at', '>', now), eb('user_id', 'is not', null)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes up to `limit` held conversations whose link expired before `before`, with their messages. */
export async function pruneHeldConversations(db: Q, before: number, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (
      await trx
        .selectFrom('support_conversations')
        .select('id')
        .where('held', '=', 1)
        .where('confirm_expires_at', '<', before)
        .limit(limit)
        .execute()
    ).map((r) => r.id);
    if (!ids.length) return 0;
    await trx.deleteFrom('support_messages').where('conversation_id', 'in', ids).execute();
    await trx.deleteFrom('support_conversations').where('id', 'in', ids).execute();
    return ids.length;
  });
}

export async function insertMessage(
  db: Q,
  m: {
    conversation_id: number;
    from_operator: boolean;
    operator_id: number | null;
    body: string;
    outside_hours: boolean;
    created_at: number;
  },
): Promise<number> {
  const r = await db
    .insertInto('support_messages')
    .values({ ...m, from_operator: m.from_operator ? 1 : 0, outside_hours: m.outside_hours ? 1 : 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The unread count of the side that did not write grows; the writer has read everything.
  await db
    .updateTable('support_conversations')
    .set(
      m.from_operator
        ? { last_message_at: m.created_at, customer_unread: sql`customer_unread + 1`, operator_unread: 0 }
        : // A held conversation stays out of the operators' unread count (and its index) until released.
          {
            last_message_at: m.created_at,
            operator_unread: sql`CASE WHEN held = 1 THEN 0 ELSE operator_unread + 1 END`,
            customer_unread: 0,
          },
    )
    .where('id', '=', m.conversation_id)
    .execute();
  return r.id;
}

/** A conversation's messages, oldest first, with the answering operator's name; the newest `limit`. */
export async function messagesOf(db: Q, conversationId: number, limit = 200) {
  const rows = await db
    .selectFrom('support_messages as m')
    .select([
      'm.id',
      'm.from_operator',
      'm.body',
      'm.outside_hours',
      'm.created_at',
      usernameOf('m.operator_id').as('operator'),
    ])
    .where('m.conversation_id', '=', conversationId)
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The customer's newest message, to tell whether it was left outside support hours. */
export function lastCustomerMessage(db: Q, conversationId: number) {
  return db
    .selectFrom('support_messages')
    .select(['id', 'outside_hours'])
    .where('conversation_id', '=', conversationId)
    .where('from_operator', '=', 0)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function markRead(db: Q, conversationId: number, side: 'operator' | 'customer'): Promise<boolean> {
  const column = side === 'operator' ? 'operator_unread' : 'customer_unread';
  const r = await db
    .updateTable('support_conversations')
    .set({ [column]: 0 })
    .where('id', '=', conversationId)
    .where(column, '>', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The inbox: conversations with unread messages first, then the most recent; with who wrote and the newest message. Held ones are not in it. */
export function inbox(db: Q, limit: number) {
  return db
    .selectFrom('support_conversations as c')
    .select([
      'c.id',
      'c.user_id',
      'c.visitor_email',
      usernameOf('c.user_id').as('username'),
      'c.operator_unread',
      'c.last_message_at',
      (eb) =>
        eb
          .selectFrom('support_messages as m')
          .select('m.body')
          .whereRef('m.conversation_id', '=', 'c.id')
          .orderBy('m.id', 'desc')
          .limit(1)
          .as('last_message'),
    ])
    .where('c.held', '=', 0)
    .orderBy(sql`c.operator_unread > 0`, 'desc')
    .orderBy('c.last_message_at', 'desc')
    .limit(limit)
    .execute();
}

export async function unreadTotal(db: Q): Promise<number> {
  // `operator_unread > 0`: the partial index holds only those rows, so this reads the unread, not every conversation.
  const r = await db
    .selectFrom('support_conversations')
    .select(sql<number>`coalesce(sum(operator_unread), 0)`.as('n'))
    .where('operator_unread', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Conversations with messages the operators have not read (held ones count none). */
export async function unreadConversationCount(db: Q): Promise<number> {
  const r = await db
    .selectFrom('support_conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('operator_unread', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
