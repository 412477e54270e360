import { PageHeader } from '../layout/DashboardShell';
import { EmptyState } from '../ui/EmptyState';

export function Staking() {
  return (
    <>
      <PageHeader title="Staking" />
      <section className="card">
        <EmptyState title="You are not staking yet">
          Staking nodes and validators you run with us are listed here.
        </EmptyState>
      </section>
    </>
  );
}
