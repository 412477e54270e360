import { formatBalance } from '../../shared/format';
import { useUser } from '../auth/auth';
import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';
import { Stat } from '../ui/Stat';

/** Funding (crypto, card, gift code) and the transaction history come with the billing issue. */
export function Billing() {
  const user = useUser();
  return (
    <>
      <PageHeader title="Billing" />
      <section className="stats">
        <Stat label="Account balance" value={`$${formatBalance(user.balance)}`} />
        <Stat label="Total nodes" value="0" />
        <Stat label="Monthly expenses" value="$0.00" />
      </section>
      <section className="card">
        <EmptyState title="No transactions yet">
          Adding funds by crypto, card or gift code is not open yet. Your balance pays hosting fees daily; the transaction history will list every charge and
          deposit.
        </EmptyState>
      </section>
    </>
  );
}
