import { formatBalance } from '../../shared/format';
import { trpc } from '../app/trpc';
import { useUser } from '../auth/auth';
import { PageHeader } from '../dashboard/DashboardShell';
import { portfolioRows } from '../portfolio/portfolio';
import { ContactLink } from '../site/support';
import { EmptyState } from '../ui/EmptyState';
import { formatCount, formatUsd2, MISSING } from '../ui/display';
import { Stat } from '../ui/Stat';
import { CryptoTab } from '../billing/CryptoTab';

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
      <section className="card" aria-label="Crypto">
        <CryptoTab />
      </section>
      <section className="card">
        <EmptyState title="No transactions to show">
          Your balance pays each node's hosting fee daily at 00:00 UTC. Funds cannot be added from the dashboard: to add funds by crypto, card or gift code,{' '}
          <ContactLink subject="Add funds">contact support</ContactLink>.
        </EmptyState>
      </section>
    </>
  );
}
