import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';

export function ApiKeys() {
  return (
    <>
      <PageHeader title="API" />
      <section className="card">
        <EmptyState title="You don't have any API keys">
          API keys let your scripts manage nodes, optionally limited to your IP addresses. Creating keys is not open yet.
        </EmptyState>
      </section>
    </>
  );
}
