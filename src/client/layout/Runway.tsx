import { Link } from 'wouter';
import { formatUsdGrouped } from '../../shared/money';
import { LOW_RUNWAY_DAYS, runwayText } from '../../shared/runway';
import type { GetBalanceOutput } from '../../shared/schemas/billing';
import { trpc } from '../app/trpc';
import { useSession } from '../session/session';
import { formatUsd2, MISSING } from '../ui/display';

/**
 * The runway (src/shared/runway.ts) as the top bar, Billing and Portfolio show it: one
 * query for all three (get_balance, refetched on every `update_balance` and node change).
 */
export function useBalance() {
  const { user } = useSession();
  return trpc.billing.get_balance.useQuery(undefined, { enabled: !!user });
}

/** A daily fee exactly ($0.063, not $0.06). */
const dailyText = (usd: number) => `$${formatUsdGrouped(Math.round(usd * 1_000_000))}`;

const isLow = (b: GetBalanceOutput) => b.runway_hours !== null && b.runway_hours < LOW_RUNWAY_DAYS * 24;

/** "2 days 5 hours", "No fees" with nothing charged, "--" until known. */
export function runwayValue(b: GetBalanceOutput | undefined): string {
  if (!b) return MISSING;
  return b.runway_hours === null ? 'No fees' : runwayText(b.runway_hours);
}

/** The top bar's "· 2 days 5 hours left" beside the balance (nothing when no node is charged). */
export function TopBarRunway() {
  const b = useBalance().data;
  if (!b || b.runway_hours === null) return null;
  return (
    <span className={`balance-runway${isLow(b) ? ' balance-runway-low' : ''}`} data-testid="topbar-runway">
      {runwayText(b.runway_hours)} left
    </span>
  );
}

/**
 * Under LOW_RUNWAY_DAYS days of fees: a banner on every dashboard page, and when the
 * balance does not cover the next charge, which nodes go at 00:00 UTC and what keeps them.
 */
export function RunwayBanner() {
  const b = useBalance().data;
  if (!b || !isLow(b) || b.runway_hours === null) return null;
  const short = b.at_risk.length > 0;
  return (
    <div className={`banner ${short ? 'banner-danger' : 'banner-warning'}`} role="alert" data-testid="runway-banner">
      <div className="container banner-inner">
        {short ? (
          <>
            Your balance does not cover the next daily charge of {dailyText(b.daily_cost)} at 00:00 UTC. Add at least{' '}
            {formatUsd2(b.keep)} before then, or{' '}
            {b.at_risk.length === 1 ? 'this node' : `these ${b.at_risk.length} nodes`} will be destroyed:{' '}
            {b.at_risk.map((n) => n.name).join(', ')}.{' '}
          </>
        ) : (
          <>
            Your balance pays for {runwayText(b.runway_hours)} of hosting at {dailyText(b.daily_cost)} a day.{' '}
          </>
        )}
        <Link href="/dashboard/billing">Add funds</Link>
      </div>
    </div>
  );
}
