import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';
import { ContactLink } from '../site/support';

export function ApiKeys() {
  return (
    <>
      <PageHeader title="API" />
      <section className="card">
        <EmptyState title="You don't have any API keys">
          API keys let your scripts manage nodes, optionally limited to your IP addresses. Keys cannot be created in the dashboard; <ContactLink subject="API key">contact support</ContactLink> if your scripts need one.
        </EmptyState>
      </section>
    </>
  );
}
