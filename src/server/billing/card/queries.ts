import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { CardSessionsTable, Database } from '../../db/schema';
import { usernameOf } from '../../auth/users';

type Status = CardSessionsTable['status'];

/** Records a session Stripe made; a second insert for the same request key or id writes nothing. */
export async function insertCardSession(
  db: Kysely<Database>,
  s: { id: string; user_id: number; amount: number; currency: string; url: string; request_key: string },
) {
  const now = Date.now();
  await db
    .insertInto('card_sessions')
    .values({ ...s, status: 'pending', created_at: now, updated_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export function findCardSession(db: Kysely<Database>, id: string) {
  return db.selectFrom('card_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findCardSessionByRequest(db: Kysely<Database>, requestKey: string) {
  return db.selectFrom('card_sessions').selectAll().where('request_key', '=', requestKey).executeTakeFirst();
}

/** The user's sessions still waiting for payment, newest first. */
export function pendingCardSessions(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('card_sessions')
    .select(['id', 'amount', 'created_at'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
}

/** Moves a session from one of `from` to `to`; returns whether it moved. */
export async function setCardSessionStatus(
  db: Kysely<Database>,
  id: string,
  from: Status[],
  to: Status,
): Promise<boolean> {
  const r = await db
    .updateTable('card_sessions')
    .set({ status: to, updated_at: Date.now() })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return (r.numUpdatedRows ?? 0n) > 0n;
}

/** Records the fingerprint of the card that paid the session (the first one stays). */
export async function setCardSessionFingerprint(db: Kysely<Database>, id: string, fingerprint: string): Promise<void> {
  await db
    .updateTable('card_sessions')
    .set({ card_fingerprint: fingerprint })
    .where('id', '=', id)
    .where('card_fingerprint', 'is', null)
    .execute();
}

/** Whether the user ever paid with the card of this fingerprint (recorded from issue 21 on). */
export async function cardUsedBy(db: Kysely<Database>, userId: number, fingerprint: string): Promise<boolean> {
  const row = await db
    .selectFrom('card_sessions')
    .select('id')
    .where('card_fingerprint', '=', fingerprint)
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The newest card sessions of every user (the operator's list), optionally in one status. */
export function listAllCardSessions(db: Kysely<Database>, status: Status | undefined, limit: number) {
  let q = db
    .selectFrom('card_sessions')
    .select([
      'card_sessions.id',
      'card_sessions.user_id',
      usernameOf('card_sessions.user_id').as('username'),
      'card_sessions.amount',
      'card_sessions.status',
      'card_sessions.created_at',
      'card_sessions.updated_at',
    ]);
  if (status) q = q.where('card_sessions.status', '=', status);
  return q.orderBy('card_sessions.created_at', 'desc').limit(limit).execute();
}

/** Records the PaymentIntent of a paid session, once; none when another session already has it. */
export async function setCardSessionPaymentIntent(db: Kysely<Database>, id: string, paymentIntent: string) {
  await db
    .updateTable('card_sessions')
    .set({ payment_intent: paymentIntent })
    .where('id', '=', id)
    .where('payment_intent', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('card_sessions as o').select('o.id').where('o.payment_intent', '=', paymentIntent))),
    )
    .execute();
}

export function findCardSessionByPaymentIntent(db: Kysely<Database>, paymentIntent: string) {
  return db.selectFrom('card_sessions').selectAll().where('payment_intent', '=', paymentIntent).executeTakeFirst();
}

/** Marks a Stripe event applied; false when it was applied before. */
export async function insertCardEvent(
  db: Kysely<Database>,
  e: { id: string; type: string; session_id: string },
): Promise<boolean> {
  const r = await db
    .insertInto('card_events')
    .values({ ...e, applied_at: Date.now() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function cardReversal(
  db: Kysely<Database>,
  sessionId: string,
): Promise<{ refunded: number; taken: number }> {
  const row = await db
    .selectFrom('card_reversals')
    .select(['refunded', 'taken'])
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row ?? { refunded: 0, taken: 0 };
}

export async function saveCardReversal(db: Kysely<Database>, sessionId: string, refunded: number, taken: number) {
  const now = Date.now();
  await db
    .insertInto('card_reversals')
    .values({ session_id: sessionId, refunded, taken, updated_at: now })
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ refunded, taken, updated_at: now }))
    .execute();
}

export function findCardDispute(db: Kysely<Database>, id: string) {
  return db.selectFrom('card_disputes').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Records a dispute or its new status. Its amount never shrinks: a later event naming a
 * smaller amount (a `closed` lost for less than was `created`) must not give money back.
 */
export async function upsertCardDispute(
  db: Kysely<Database>,
  d: { id: string; session_id: string; amount: number; status: 'open' | 'won' | 'lost' },
) {
  const now = Date.now();
  await db
    .insertInto('card_disputes')
    .values({ ...d, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        amount: sql<number>`max(card_disputes.amount, excluded.amount)`,
        status: d.status,
        updated_at: now,
      }),
    )
    .execute();
}

/** What the session's open and lost disputes hold back (micro-dollars). */
export async function disputedAmount(db: Kysely<Database>, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('card_disputes')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
    .where('session_id', '=', sessionId)
    .where('status', 'in', ['open', 'lost'])
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Whether the two users ever paid with the same card (fingerprints recorded from issue 21 on). */
export async function shareACard(db: Kysely<Database>, userA: number, userB: number): Promise<boolean> {
  const row = await db
    .selectFrom('card_sessions as a')
    .innerJoin('card_sessions as b', 'b.card_fingerprint', 'a.card_fingerprint')
    .select('a.id')
    .where('a.user_id', '=', userA)
    .where('b.user_id', '=', userB)
    .where('a.card_fingerprint', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The other users who paid with the card of this fingerprint. */
export async function otherCardPayers(
  db: Kysely<Database>,
  fingerprint: string,
  exceptUserId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('card_sessions')
    .select('user_id')
    .distinct()
    .where('card_fingerprint', '=', fingerprint)
    .where('user_id', '!=', exceptUserId)
    .execute();
  return rows.map((r) => r.user_id);
}
