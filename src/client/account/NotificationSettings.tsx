import { PageHeader } from '../dashboard/DashboardShell';
import { EmptyState } from '../ui/EmptyState';

export function NotificationSettings() {
  return (
    <>
      <PageHeader title="Notifications" />
      <section className="card">
        <EmptyState title="No email notifications to configure yet">
          You will choose here which events (node down, low balance, rewards) send you an email. Notifications inside the dashboard already arrive live.
        </EmptyState>
      </section>
    </>
  );
}
