import type { GetReferralsOutput, GetRefInfosOutput } from '../../shared/schemas/billing';
import { microsToUsd } from '../../shared/money';
import type { Context } from '../rpc/context';
import { hourOf } from '../notifications/raise';
import { pendingBonusTotal, referralHistory, referralTotals, type ReferralLine } from './queries';

type Ctx = Pick<Context, 'db'>;

/** What the customer reads on a line of a bonus not paid yet: that it is pending, and until when. */
function describe(r: ReferralLine): string {
  if (r.kind === 'signup') return `${r.username} signed up`;
  if (r.kind === 'bonus') return r.description;
  const what = `Referral bonus: ${r.username}'s first deposit`;
  if (r.status === 'awaiting_approval') return `${what} (pending review, not spendable yet)`;
  return `${what} (pending, spendable from ${hourOf(r.until ?? 0).slice(0, 10)})`;
}

/**
 * The affiliate history: "<name> signed up" (amount 0) for each referred user, a
 * "(pending ...)" line while a bonus is held, and the ledger's own line once it is paid
 * ("Referral bonus: <name>'s first deposit", $10). Only the caller's own referrals: the
 * query is keyed by the caller's id.
 */
export async function getReferrals(
  ctx: Ctx,
  userId: number,
  page: { page: number; per_page: number },
): Promise<GetReferralsOutput> {
  const { rows, total } = await referralHistory(ctx.db, userId, page.page, page.per_page);
  return {
    success: true,
    referrals: rows.map((r) => ({
      date: hourOf(r.at),
      description: describe(r),
      amount: microsToUsd(r.amount),
    })),
    total,
  };
}

export async function getRefInfos(ctx: Ctx, userId: number): Promise<GetRefInfosOutput> {
  const [t, pending] = await Promise.all([referralTotals(ctx.db, userId), pendingBonusTotal(ctx.db, userId)]);
  return {
    success: true,
    total_refs: t.refs,
    total_ref_earnings: microsToUsd(t.earnings),
    total_ref_mns: t.nodes,
    pending_ref_earnings: microsToUsd(pending),
  };
}
