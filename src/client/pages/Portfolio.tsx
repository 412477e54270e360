import { Link } from 'wouter';
import { PageHeader } from '../components/DashboardShell';
import { EmptyState } from '../components/EmptyState';
import { Stat } from '../components/Stat';

export function Portfolio() {
  return (
    <>
      <PageHeader title="Portfolio" />
      <section className="stats">
        <Stat label="Nodes" value="0" />
        <Stat label="Total worth" value="--" />
        <Stat label="Monthly income" value="--" />
        <Stat label="Monthly expenses" value="$0.00" />
      </section>
      <section className="card">
        <EmptyState
          title="You don't have any masternodes"
          action={
            <Link href="/dashboard" className="btn btn-primary">
              Deploy now
            </Link>
          }
        >
          Nodes you deploy are listed here with their status, rewards and worth.
        </EmptyState>
      </section>
    </>
  );
}

