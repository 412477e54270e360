import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';

export function NotificationSettings() {
  return (
    <>
      <PageHeader title="Notifications" />
      <section className="card">
        <EmptyState title="No email notifications to configure">
          Email notifications cannot be set here. Notifications inside the dashboard arrive live, in the bell menu at the top.
        </EmptyState>
      </section>
    </>
  );
}
