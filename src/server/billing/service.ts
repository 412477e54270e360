import type { GetBalanceOutput, GetTransactionsOutput } from '../../shared/schemas/billing';
import { microsToUsd, toUsdNumber } from '../../shared/money';
import type { Context } from '../rpc/context';
import { hourOf } from '../notifications/raise';
import { namesOf, runwayOf } from './runway';
import { pendingCardSessions } from './card/queries';
import { chargedNodeTotals } from '../nodes/charged';
import { userTransfers } from './queries';
import { pendingDeposits } from './crypto/service';

type Ctx = Pick<Context, 'db'>;

export async function getBalance(ctx: Ctx, userId: number): Promise<GetBalanceOutput> {
  const r = await runwayOf(ctx.db, userId);
  return {
    success: true,
    balance: toUsdNumber(r.balance),
    total_masternodes: (await chargedNodeTotals(ctx.db, userId)).count,
    monthly_cost: microsToUsd(r.daily * 30),
    daily_cost: microsToUsd(r.daily),
    runway_hours: r.hours,
    at_risk: await namesOf(ctx.db, r.atRisk),
    // Rounded up: adding this much is never a cent short.
    keep: Math.ceil(r.short / 10_000) / 100,
  };
}

/**
 * The history page, with the user's card sessions still open and deposits seen on chain
 * but not yet credited (each module lists its own; none while that method is off).
 */
export async function getTransactions(
  ctx: Ctx,
  userId: number,
  page: { page: number; per_page: number },
): Promise<GetTransactionsOutput> {
  const [{ rows, total }, sessions, pending] = await Promise.all([
    userTransfers(ctx.db, userId, page.page, page.per_page),
    pendingCardSessions(ctx.db, userId),
    pendingDeposits(ctx, userId),
  ]);
  return {
    success: true,
    stripe: sessions.map((s) => ({ id: s.id, amount: microsToUsd(s.amount), time: hourOf(s.created_at) })),
    pending,
    transactions: rows.map((r) => ({
      date: hourOf(r.created_at),
      description: r.description,
      amount: microsToUsd(r.signed),
    })),
    total,
  };
}
