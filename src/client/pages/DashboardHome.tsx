import { Link } from 'wouter';
import { useSession } from '../auth';
import { PageHeader } from '../components/DashboardShell';
import { EmptyState } from '../components/EmptyState';

/**
 * The coin list. The catalog (get_coins) arrives with the next issue; the search box
 * and the table head are in place so the page keeps its shape, the box disabled while
 * there is nothing to search.
 */
export function DashboardHome() {
  const { user } = useSession();
  return (
    <>
      <PageHeader title="Coins">
        <div className="field field-inline">
          <label htmlFor="coin-search" className="sr-only">
            Search coins
          </label>
          <input id="coin-search" type="search" placeholder="Search coins" disabled />
        </div>
      </PageHeader>
      <section className="card table-card">
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Coin</th>
                <th scope="col">Collateral</th>
                <th scope="col">Node value</th>
                <th scope="col">ROI</th>
                <th scope="col">Monthly revenue</th>
                <th scope="col">Hosted</th>
                <th scope="col">24h</th>
                <th scope="col">Monthly fee</th>
              </tr>
            </thead>
          </table>
        </div>
        <EmptyState
          title="No coins are listed yet."
          action={
            user ? null : (
              <Link href="/register" className="btn btn-primary">
                Create an account
              </Link>
            )
          }
        >
          The platform operator has not added any coins to the catalog. Supported masternode, validator and staking coins will show up here.
        </EmptyState>
      </section>
    </>
  );
}
