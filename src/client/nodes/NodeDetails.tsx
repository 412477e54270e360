import type { ReactNode } from 'react';
import { formatNumber } from '../../shared/format';
import { HIDDEN_NETWORK_STATUS_COINS, REMOVED_HINT } from '../../shared/node-status';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { MISSING } from '../ui/display';
import { humanDuration, relativeTime, utcDateTime } from './nodeTime';
import { NetworkStatusBadge, NodeStatusBadge } from './StatusBadges';

/** A label-value row of the details tables; the label is the row header, so tests and screen readers can find it. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{children}</td>
    </tr>
  );
}

/** The node's details table: statuses, id, addresses, activity times. */
export function NodeDetails({ node }: { node: MasternodeDetail }) {
  const showNetwork = !HIDDEN_NETWORK_STATUS_COINS.has(node.currency);
  const fullText = node.status_text && node.status_text !== node.status_on_network ? node.status_text : null;
  return (
    <section className="card table-card" aria-labelledby="details-title">
      <h2 id="details-title" className="card-title">
        Details
      </h2>
      <table className="table details-table" aria-labelledby="details-title">
        <tbody>
          <DetailRow label="Masternode status">
            <NodeStatusBadge status={node.status} />
            {node.status === 'removed' && <p className="status-note text-red">{REMOVED_HINT}</p>}
            {node.problem && <p className="status-note muted">{node.problem}</p>}
          </DetailRow>
          {showNetwork && (
            <DetailRow label="Network status">
              <NetworkStatusBadge status={node.status_on_network} />
              {fullText && <p className="status-note muted">{fullText}</p>}
            </DetailRow>
          )}
          <DetailRow label="ID">
            <code>{node.mn_id}</code>
          </DetailRow>
          <DetailRow label="IP">{node.simulated ? 'None: a simulated node has no address on the network' : (node.server_ip ?? MISSING)}</DetailRow>
          {node.server_ip6 && <DetailRow label="IPv6">{node.server_ip6}</DetailRow>}
          <DetailRow label="Active time">{node.active_time === null ? MISSING : humanDuration(node.active_time)}</DetailRow>
          <DetailRow label="Reward frequency">{node.reward_freq === null ? MISSING : `${formatNumber(node.reward_freq)} hours`}</DetailRow>
          <DetailRow label="Last reward">
            {node.last_paid ? (
              <time dateTime={node.last_paid} title={utcDateTime(node.last_paid)}>
                {relativeTime(node.last_paid)}
              </time>
            ) : (
              MISSING
            )}
          </DetailRow>
        </tbody>
      </table>
    </section>
  );
}
