import { formatBalance, formatDailyPrice, formatNumber, formatPercent } from '../../shared/format';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { MISSING } from '../ui/display';
import { Stat } from '../ui/Stat';

/** Shown for earnings and exits when the node's wallet activity is not known. */
const NO_ACTIVITY = '---';

/** Investment, Earnings, Exits and Daily hosting fees (deployment-and-nodes.md section 2). */
export function OverviewCards({ node }: { node: MasternodeDetail }) {
  const ticker = node.currency_data.ticker;
  const a = node.activity;
  return (
    <section className="stats overview-cards" aria-label="Overview">
      {/* A simulated node holds no collateral: nothing is invested in it. */}
      <Stat
        label="Investment"
        value={node.simulated ? `None (simulated)` : `${formatNumber(node.collateral)} ${ticker}`}
      />
      {/* Nor does it earn: its simulated wallet's coins are no earnings. */}
      <Stat
        label="Earnings"
        value={
          node.simulated
            ? 'None (simulated)'
            : a
              ? `${formatNumber(a.sent + a.balance - node.collateral)} ${ticker}`
              : NO_ACTIVITY
        }
      />
      <Stat label="Exits" value={a ? `${formatNumber(a.sent)} ${ticker}` : NO_ACTIVITY} />
      <Stat label="Daily hosting fees" value={`$${formatDailyPrice(node.hosting_price)}`} />
    </section>
  );
}

/** The revenue bar's income: 12 × the monthly revenue figure, null without one. */
export const yearlyIncome = (revenue: MasternodeDetail['revenue']): number | null =>
  typeof revenue === 'number' ? 12 * revenue : null;

const usd = (n: number | null) => (n === null ? MISSING : `$${formatBalance(n)}`);

/**
 * The revenue bar under the cards: monthly revenue, yearly income (12 × revenue) and
 * the node's ROI, a dash where the coin has no price.
 */
export function RevenueBar({ node }: { node: MasternodeDetail }) {
  const monthly = typeof node.revenue === 'number' ? node.revenue : null;
  const yearly = yearlyIncome(node.revenue);
  // The bar's fill is the ROI, capped at 100 % so a high ROI still fits.
  const fill = Math.max(0, Math.min(100, node.roi ?? 0));
  return (
    <section className="card revenue-bar" aria-label="Revenue">
      <dl className="revenue-figures">
        <div>
          <dt>Monthly revenue</dt>
          <dd data-testid="revenue-monthly">{usd(monthly)}</dd>
        </div>
        <div>
          <dt>Yearly income</dt>
          <dd data-testid="revenue-yearly">{usd(yearly)}</dd>
        </div>
        <div>
          <dt>ROI</dt>
          <dd>{node.roi === null ? MISSING : formatPercent(node.roi)}</dd>
        </div>
      </dl>
      {node.roi !== null && (
        <div className="revenue-track" aria-hidden="true">
          <div className="revenue-fill" style={{ width: `${fill}%` }} />
        </div>
      )}
    </section>
  );
}
