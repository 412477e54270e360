import { Link } from 'wouter';
import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';
import { ContactLink } from '../site/support';

export function Deploy() {
  return (
    <>
      <PageHeader title="Deploy" />
      <section className="card">
        <EmptyState
          title="Deploying from the dashboard is not available"
          action={
            <Link href="/dashboard" className="btn btn-primary">
              Browse coins
            </Link>
          }
        >
          To have a node of a listed coin deployed, <ContactLink subject="Deploy a node">contact support</ContactLink> with the coin and the plan. The coin list shows prices and figures.
        </EmptyState>
      </section>
    </>
  );
}
