import { formatDailyPrice, formatNumber } from '../../shared/format';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { Stat } from '../ui/Stat';

/** Shown for earnings and exits until the node's wallet activity is watched. */
const NO_ACTIVITY = '---';

/** Investment, Earnings, Exits and Daily hosting fees (deployment-and-nodes.md section 2). */
export function OverviewCards({ node }: { node: MasternodeDetail }) {
  const ticker = node.currency_data.ticker;
  const a = node.activity;
  return (
    <section className="stats overview-cards" aria-label="Overview">
      {/* A simulated node holds no collateral: nothing is invested in it. */}
      <Stat label="Investment" value={node.simulated ? `None (simulated)` : `${formatNumber(node.collateral)} ${ticker}`} />
      <Stat label="Earnings" value={a ? `${formatNumber(a.sent + a.balance - node.collateral)} ${ticker}` : NO_ACTIVITY} />
      <Stat label="Exits" value={a ? `${formatNumber(a.sent)} ${ticker}` : NO_ACTIVITY} />
      <Stat label="Daily hosting fees" value={`$${formatDailyPrice(node.hosting_price)}`} />
    </section>
  );
}
