import { utcDate } from './nodeTime';
import { familyOf } from '../../shared/families';
import { formatNumber } from '../../shared/format';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { formatCount } from '../ui/display';
import { QueryState } from '../ui/QueryState';
import { TableScroll } from '../ui/TableScroll';

/**
 * tab=proposals: the governance proposals the node's daemon knows, for families with
 * governance. Votes are shown, not cast: the customer votes from their own wallet
 * with the voting key, which the platform does not hold.
 */
export function Proposals({ node }: { node: MasternodeDetail }) {
  const governance = familyOf(node.family).governance;
  return (
    <section className="card table-card" aria-labelledby="proposals-title">
      <h2 id="proposals-title" className="card-title">
        Proposals
      </h2>
      {governance ? (
        <ProposalList mn={node.mn_id} />
      ) : (
        <Alert kind="info">{node.currency_data.label} has no governance proposals.</Alert>
      )}
    </section>
  );
}

function ProposalList({ mn }: { mn: string }) {
  const proposals = trpc.nodes.get_proposals.useQuery({ masternode: mn });
  return (
    <QueryState query={proposals} what="The proposals" loadingLabel="Loading proposals…">
      {({ data }) =>
        data.length === 0 ? (
          <p className="table-empty">There are no proposals on the network right now.</p>
        ) : (
          <>
            <TableScroll>
              <table className="table" aria-labelledby="proposals-title">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Budget</th>
                    <th scope="col">Start</th>
                    <th scope="col">End</th>
                    <th scope="col">Yes</th>
                    <th scope="col">No</th>
                    <th scope="col">Abstain</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((p) => (
                    <tr key={p.name}>
                      <th scope="row">{p.name}</th>
                      <td>{formatNumber(p.budget)}</td>
                      <td>{utcDate(new Date(p.start_block * 1000).toISOString())}</td>
                      <td>{utcDate(new Date(p.end_block * 1000).toISOString())}</td>
                      <td>{formatCount(p.yes)}</td>
                      <td>{formatCount(p.no)}</td>
                      <td>{formatCount(p.abstain)}</td>
                      <td>{p.status}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <p className="muted small">Votes are cast from your own wallet with the node’s voting key.</p>
          </>
        )
      }
    </QueryState>
  );
}
