import { Link } from 'wouter';
import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';

export function Deploy() {
  return (
    <>
      <PageHeader title="Deploy" />
      <section className="card">
        <EmptyState
          title="Nothing to deploy yet"
          action={
            <Link href="/dashboard" className="btn btn-primary">
              Browse coins
            </Link>
          }
        >
          Pick a coin from the list to start a deployment. No coins are listed yet.
        </EmptyState>
      </section>
    </>
  );
}
