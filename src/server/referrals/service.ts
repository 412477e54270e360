import type { GetReferralsOutput, GetRefInfosOutput } from '../../shared/schemas/billing';
import { microsToUsd } from '../../shared/money';
import type { Context } from '../context';
import { hourOf } from '../notifications/raise';
import { referralHistory, referralTotals } from './queries';

type Ctx = Pick<Context, 'db'>;

/**
 * The affiliate history: "<name> signed up" (amount 0) for each referred user, and the
 * ledger's own line for each bonus paid ("Referral bonus: <name>'s first deposit", $10).
 * Only the caller's own referrals: the query is keyed by the caller's id.
 */
export async function getReferrals(ctx: Ctx, userId: number, page: { page: number; per_page: number }): Promise<GetReferralsOutput> {
  const { rows, total } = await referralHistory(ctx.db, userId, page.page, page.per_page);
  return {
    success: true,
    referrals: rows.map((r) => ({
      date: hourOf(r.at),
      description: r.kind === 'signup' ? `${r.username} signed up` : r.description,
      amount: microsToUsd(r.amount),
    })),
    total,
  };
}

export async function getRefInfos(ctx: Ctx, userId: number): Promise<GetRefInfosOutput> {
  const t = await referralTotals(ctx.db, userId);
  return { success: true, total_refs: t.refs, total_ref_earnings: microsToUsd(t.earnings), total_ref_mns: t.nodes };
}
