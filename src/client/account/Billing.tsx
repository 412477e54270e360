import { formatBalance } from '../../shared/format';
import { trpc } from '../app/trpc';
import { CardTab } from '../billing/CardTab';
import { GiftCodeTab } from '../billing/GiftCodeTab';
import { useUser } from '../auth/auth';
import { PageHeader } from '../dashboard/DashboardShell';
import { portfolioRows } from '../portfolio/portfolio';
import { formatCount, formatUsd2, MISSING } from '../ui/display';
import { Stat } from '../ui/Stat';

/**
 * The balance and what the customer's nodes cost (from get_masternodes: every node,
 * deploying ones too, and 30 × their daily prices). Funding and the transaction history
 * have no calls yet, so the page says what the customer can do instead.
 */
export function Billing() {
  const user = useUser();
  const nodes = trpc.nodes.get_masternodes.useQuery();
  const data = nodes.data;
  return (
    <>
      <PageHeader title="Billing" />
      <section className="stats" aria-label="Billing totals">
        <Stat label="Account balance" value={`$${formatBalance(user.balance)}`} />
        <Stat label="Total nodes" value={data ? formatCount(portfolioRows(data).length) : MISSING} />
        <Stat label="Monthly expenses" value={data ? formatUsd2(data.monthly_cost) : MISSING} />
      </section>
      {/* Until the page has its tabs (Crypto, Stripe, Gift Code), the card and gift code tabs stand here. */}
      <section className="card" aria-label="Stripe">
        <h2>Stripe</h2>
        <CardTab />
      </section>
      <section className="card" aria-label="Gift Code">
        <h2>Gift Code</h2>
        <GiftCodeTab />
      </section>
    </>
  );
}
