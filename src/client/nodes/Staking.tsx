import { Link } from 'wouter';
import { PageHeader } from '../layout/DashboardShell';
import { trpc } from '../app/trpc';
import { EmptyState } from '../ui/EmptyState';
import { QueryState } from '../ui/QueryState';
import { TableScroll } from '../ui/TableScroll';
import { NodeStatusBadge } from './StatusBadges';
import { SimulatedBadge } from '../ui/SimulatedBadge';
import { nodeName } from './portfolio';
import { utcDate } from './nodeTime';
import { activationState } from './validatorState';

const nodeHref = (mnId: string) => `/dashboard/masternode/${encodeURIComponent(mnId)}`;

/** /dashboard/staking: the customer's validators, each with its node status and its state on the beacon chain. */
export function Staking() {
  const nodes = trpc.nodes.get_masternodes.useQuery();
  return (
    <>
      <PageHeader title="Staking" />
      <QueryState query={nodes} what="Your validators" loadingLabel="Loading your validators…">
        {(data) => {
          const validators = data.masternodes.filter((n) => n.front_options.validator_evm);
          if (!validators.length)
            return (
              <section className="card">
                <EmptyState
                  title="You are not staking yet"
                  action={
                    <Link href="/dashboard" className="btn btn-primary">
                      Deploy a validator
                    </Link>
                  }
                >
                  Validators you run with us are listed here with their state on the beacon chain.
                </EmptyState>
              </section>
            );
          return (
            <section className="card table-card">
              <TableScroll>
                <table className="table" aria-label="Validators">
                  <thead>
                    <tr>
                      <th scope="col">Validator</th>
                      <th scope="col">Status</th>
                      <th scope="col">Beacon chain</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {validators.map((n) => (
                      <tr key={n.mn_id} data-mn={n.mn_id}>
                        <td>
                          <Link href={nodeHref(n.mn_id)}>
                            {n.currency_data.label} {nodeName(n)}
                          </Link>
                          {n.simulated && <SimulatedBadge />}
                        </td>
                        <td>
                          <NodeStatusBadge status={n.status} />
                        </td>
                        <td data-col="activation">{activationState(n.status, n.status_on_network)}</td>
                        <td>{utcDate(n.create_date)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </section>
          );
        }}
      </QueryState>
    </>
  );
}
