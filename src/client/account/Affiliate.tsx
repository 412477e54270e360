import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';
import { Stat } from '../ui/Stat';

export function Affiliate() {
  return (
    <>
      <PageHeader title="Affiliate" />
      <section className="stats">
        <Stat label="Referrals" value="0" />
        <Stat label="Earnings" value="$0.00" />
        <Stat label="MNs of referrals" value="0" />
      </section>
      <section className="card">
        <EmptyState title="No referrals yet">
          Earn a $10 bonus when someone you refer makes a first deposit of at least $10. There is no referral link for your account.
        </EmptyState>
      </section>
    </>
  );
}
