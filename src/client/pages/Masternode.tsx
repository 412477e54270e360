import { Link, useParams } from 'wouter';
import { PageHeader } from '../components/DashboardShell';
import { EmptyState } from '../components/EmptyState';

export function Masternode() {
  const { mn } = useParams<{ mn: string }>();
  return (
    <>
      <PageHeader title="Masternode" />
      <section className="card">
        <EmptyState
          title="Node not found"
          action={
            <Link href="/dashboard/portfolio" className="btn btn-primary">
              Back to portfolio
            </Link>
          }
        >
          There is no node <code>{mn}</code> in your account.
        </EmptyState>
      </section>
    </>
  );
}
