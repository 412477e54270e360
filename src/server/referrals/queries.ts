import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { userAccount } from '../billing/ledger';
import { CHARGED } from '../../shared/lifecycle';
import type { Database } from '../db/schema';

/*
 * What the affiliate page reads: the users a referrer brought (`users.referrer_id`,
 * fixed at registration) and the bonuses the ledger paid them (`referral_bonus`
 * transfers credited to the referrer). Read-only; nothing here moves money.
 */

export type ReferralLine = { at: number; kind: 'signup' | 'bonus'; username: string | null; description: string; amount: number };

/**
 * One page of the referrer's history, newest first: a line when a referred user signed
 * up, and one when that user's first deposit paid the bonus. With the total count.
 */
export async function referralHistory(db: Kysely<Database>, referrerId: number, page: number, perPage: number) {
  const account = userAccount(referrerId);
  // `ord` keeps a sign-up before its bonus when both fall in the same millisecond.
  const lines = sql<ReferralLine & { ord: number; id: number }>`
    SELECT created_at AS at, 'signup' AS kind, username, '' AS description, 0 AS amount, 0 AS ord, id FROM users WHERE referrer_id = ${referrerId}
    UNION ALL
    SELECT created_at, 'bonus', NULL, description, amount, 1, id FROM ledger_transfers WHERE credit_account = ${account} AND kind = 'referral_bonus'`;
  const [rows, total] = await Promise.all([
    sql<ReferralLine>`SELECT at, kind, username, description, amount FROM (${lines}) ORDER BY at DESC, ord DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`.execute(db),
    sql<{ n: number }>`SELECT count(*) AS n FROM (${lines})`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

/** How many users the referrer brought, what their bonuses came to (micro-dollars), and their nodes that are charged (not deleted or failed). */
export async function referralTotals(db: Kysely<Database>, referrerId: number): Promise<{ refs: number; earnings: number; nodes: number }> {
  const [refs, earnings, nodes] = await Promise.all([
    db.selectFrom('users').select(sql<number>`count(*)`.as('n')).where('referrer_id', '=', referrerId).executeTakeFirstOrThrow(),
    db
      .selectFrom('ledger_transfers')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('n'))
      .where('credit_account', '=', userAccount(referrerId))
      .where('kind', '=', 'referral_bonus')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('nodes')
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('referrer_id', '=', referrerId))
      .where('state', 'in', CHARGED)
      .executeTakeFirstOrThrow(),
  ]);
  return { refs: Number(refs.n), earnings: Number(earnings.n), nodes: Number(nodes.n) };
}
