import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import { referredCount, referredUserIds, referredUsersSql, usernamesByIds } from '../auth/users';
import { referralEarnings, transfersOfAccountSql } from '../billing/transfers';
import { userAccount } from '../billing/ledger';
import { countChargedNodesOf } from '../nodes/charged';
import type { Database, ReferralBonus, ReferralBonusesTable, ReferralBonusStatus } from '../db/schema';

/*
 * What the affiliate page reads: the users a referrer brought (`users.referrer_id`,
 * fixed at registration), the bonuses held for them and the bonuses the ledger paid them
 * (`referral_bonus` transfers credited to the referrer). Nothing here moves money.
 */

export type ReferralLine = {
  at: number;
  /** `held`: a bonus not paid yet (its `status`: pending or awaiting_approval, and `until`: when it matures). */
  kind: 'signup' | 'bonus' | 'held';
  username: string | null;
  description: string;
  amount: number;
  status: string | null;
  until: number | null;
};

/**
 * One page of the referrer's history, newest first: a line when a referred user signed
 * up, one while their bonus is held (pending or awaiting approval), and the ledger's line
 * once it is paid. With the total count.
 */
export async function referralHistory(db: Kysely<Database>, referrerId: number, page: number, perPage: number) {
  const account = userAccount(referrerId);
  // `ord` keeps a sign-up before its bonus when both fall in the same millisecond.
  // A held line carries its referred user's id; the name comes from auth (usernamesByIds).
  const lines = sql<ReferralLine & { ord: number; id: number; referred_id: number | null }>`
    SELECT created_at AS at, 'signup' AS kind, username, '' AS description, 0 AS amount, NULL AS status, NULL AS until, 0 AS ord, id, NULL AS referred_id FROM (${referredUsersSql(referrerId)})
    UNION ALL
    SELECT created_at, 'bonus', NULL, description, amount, NULL, NULL, 1, id, NULL FROM (${transfersOfAccountSql('credit', account, 'referral_bonus')})
    UNION ALL
    SELECT created_at, 'bonus', NULL, description, -amount, NULL, NULL, 2, id, NULL FROM (${transfersOfAccountSql('debit', account, 'referral_bonus_reversed')})
    UNION ALL
    SELECT created_at, 'held', NULL, '', amount, status, matures_at, 1, id, referred_user_id FROM referral_bonuses
      WHERE referrer_id = ${referrerId} AND status IN ('pending', 'awaiting_approval')`;
  const [rows, total] = await Promise.all([
    sql<
      ReferralLine & { referred_id: number | null }
    >`SELECT at, kind, username, description, amount, status, until, referred_id FROM (${lines}) ORDER BY at DESC, ord DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`.execute(
      db,
    ),
    sql<{ n: number }>`SELECT count(*) AS n FROM (${lines})`.execute(db),
  ]);
  const names = await usernamesByIds(
    db,
    rows.rows.flatMap((r) => (r.referred_id === null ? [] : [r.referred_id])),
  );
  return {
    rows: rows.rows.map(({ referred_id, ...r }): ReferralLine =>
      referred_id === null ? r : { ...r, username: names.get(referred_id) ?? null },
    ),
    total: Number(total.rows[0]?.n ?? 0),
  };
}

/** How many users the referrer brought, what their bonuses came to (micro-dollars), and their nodes that are charged (not deleted or failed). */
export async function referralTotals(
  db: Kysely<Database>,
  referrerId: number,
): Promise<{ refs: number; earnings: number; nodes: number }> {
  const [refs, earnings, nodes] = await Promise.all([
    referredCount(db, referrerId),
    referralEarnings(db, referrerId),
    countChargedNodesOf(db, referredUserIds(db, referrerId)),
  ]);
  return { refs, earnings, nodes };
}

/*
 * The held bonuses (`referral_bonuses`, migration 0310): one row per referred user, from
 * the first qualifying deposit on. Only bonus.ts and console.ts write them.
 */

type NewBonus = Omit<Insertable<ReferralBonusesTable>, 'id' | 'decided_by' | 'decided_at'>;

/** Writes the referred user's bonus row; false when they already have one (one per referred user, ever). */
export async function insertReferralBonus(db: Kysely<Database>, b: NewBonus): Promise<boolean> {
  const r = await db
    .insertInto('referral_bonuses')
    .values(b)
    .onConflict((oc) => oc.column('referred_user_id').doNothing())
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** How many bonuses the referrer was let through (pending or paid) since `since`; for the 10-in-30-days cap. */
export async function recentBonusCount(db: Kysely<Database>, referrerId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('referral_bonuses')
    .select(sql<number>`count(*)`.as('n'))
    .where('referrer_id', '=', referrerId)
    .where('created_at', '>=', since)
    .where('status', 'in', ['pending', 'paid'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findReferralBonus(db: Kysely<Database>, id: number) {
  return db.selectFrom('referral_bonuses').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Pending bonuses whose 14 days are over, oldest first. */
export function dueReferralBonuses(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('referral_bonuses')
    .selectAll()
    .where('status', '=', 'pending')
    .where('matures_at', '<=', now)
    .orderBy('matures_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Moves a bonus from one of `from` to `to` (with why, and who decided); returns whether it moved. */
export async function setReferralBonusStatus(
  db: Kysely<Database>,
  where: { id: number } | { depositTransferId: number },
  from: ReferralBonusStatus[],
  to: ReferralBonusStatus,
  patch: { reason?: string; decided_by?: number | null; decided_at?: number } = {},
): Promise<ReferralBonus | undefined> {
  let q = db
    .updateTable('referral_bonuses')
    .set({ status: to, ...patch })
    .where('status', 'in', from);
  q = 'id' in where ? q.where('id', '=', where.id) : q.where('deposit_transfer_id', '=', where.depositTransferId);
  return q.returningAll().executeTakeFirst();
}

/** The bonuses waiting for the operator, oldest first, with both users' names (from auth's usernamesByIds). */
export async function heldReferralBonuses(db: Kysely<Database>, limit: number) {
  const rows = await db
    .selectFrom('referral_bonuses')
    .select(['id', 'referrer_id', 'referred_user_id', 'amount', 'reason', 'created_at', 'matures_at'])
    .where('status', '=', 'awaiting_approval')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const names = await usernamesByIds(
    db,
    rows.flatMap((r) => [r.referrer_id, r.referred_user_id]),
  );
  return rows.map((r) => ({
    ...r,
    referrer: names.get(r.referrer_id) ?? null,
    referred: names.get(r.referred_user_id) ?? null,
  }));
}

/** The referrer's bonuses not paid yet (pending or awaiting approval), in micro-dollars. */
export async function pendingBonusTotal(db: Kysely<Database>, referrerId: number): Promise<number> {
  const row = await db
    .selectFrom('referral_bonuses')
    .select(sql<number>`coalesce(sum(amount), 0)`.as('n'))
    .where('referrer_id', '=', referrerId)
    .where('status', 'in', ['pending', 'awaiting_approval'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether any of these users' first deposits earned (or was judged for) a bonus of this referrer. */
export async function anyReferredBy(db: Kysely<Database>, referrerId: number, userIds: number[]): Promise<boolean> {
  if (userIds.length === 0) return false;
  const row = await db
    .selectFrom('referral_bonuses')
    .select('id')
    .where('referrer_id', '=', referrerId)
    .where('referred_user_id', 'in', userIds)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
