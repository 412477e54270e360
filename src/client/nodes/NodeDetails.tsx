import type { ReactNode } from 'react';
import { formatNumber } from '../../shared/format';
import { familyOf } from '../../shared/families';
import { REMOVED_HINT } from '../../shared/node-status';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { syncProgressText } from '../../shared/sync-progress';
import { DetailsCard } from '../ui/DetailsCard';
import { formatCount, MISSING } from '../ui/display';
import { humanDuration, relativeTime, utcDateTime } from './nodeTime';
import { NetworkStatusBadge, NodeStatusBadge } from './StatusBadges';
import { SecretValue } from './SecretValue';
import { CopyButton } from '../ui/CopyButton';

/** A label-value row of a details table written by hand (the configuration tab); the label is the row header, so tests and screen readers can find it. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{children}</td>
    </tr>
  );
}

/** The node's details: statuses, id, addresses, activity times. */
export function NodeDetails({ node }: { node: MasternodeDetail }) {
  const showNetwork = familyOf(node.family).networkStatus;
  const { setup } = node;
  const fullText = node.status_text && node.status_text !== node.status_on_network ? node.status_text : null;
  return (
    <DetailsCard
      title="Details"
      rows={[
        {
          label: 'Masternode status',
          value: (
            <>
              <NodeStatusBadge status={node.status} />
              {node.status === 'removed' && <p className="status-note text-red">{REMOVED_HINT}</p>}
              {node.problem && <p className="status-note muted">{node.problem}</p>}
              {/* Refetched on each refresh_masternode, so it follows the monitor's looks; gone once synced. */}
              {node.sync && (
                <p className="status-note sync-progress" role="status">
                  {syncProgressText(node.sync)}
                </p>
              )}
            </>
          ),
        },
        showNetwork && {
          label: 'Network status',
          value: (
            <>
              <NetworkStatusBadge status={node.status_on_network} />
              {fullText && <p className="status-note muted">{fullText}</p>}
            </>
          ),
        },
        { label: 'ID', value: <code>{node.mn_id}</code> },
        node.address
          ? {
              label: 'IP:port',
              value: (
                <span className="copy-inline">
                  <code>{node.address}</code>
                  <CopyButton text={node.address} label="Copy IP and port" />
                </span>
              ),
            }
          : {
              label: 'IP',
              value: node.simulated
                ? // Its masternode.conf and protx lines still name the server it was placed on (a real
                  // node's layout): say so, or that address reads as the node's own.
                  `None: a simulated node has no address on the network${
                    setup.commands.length
                      ? '. Where a line to copy needs one, it holds the address of the server the node was placed on.'
                      : ''
                  }`
                : (node.server_ip ?? MISSING),
            },
        node.server_ip6 ? { label: 'IPv6', value: node.server_ip6 } : null,
        !!node.zen?.fqdn && {
          label: 'FQDN',
          value: <ExternalLink href={`https://${node.zen.fqdn}`}>{node.zen.fqdn}</ExternalLink>,
        },
        // The node's own values per family (payee, keys, TXID, validator pubkey...), from the server.
        ...setup.fields.map((f) => ({
          label: f.label,
          value: f.secret ? (
            <SecretValue label={f.label} value={f.value} />
          ) : f.href ? (
            // The coin's public explorer (catalog): opens the value's page there.
            <ExternalLink href={f.href}>
              <code>{f.value}</code>
            </ExternalLink>
          ) : (
            <code>{f.value}</code>
          ),
        })),
        // Dash family (`protx info`): trouble shows here before a ban.
        setup.pose_penalty !== null && { label: 'PoSe penalty', value: formatNumber(setup.pose_penalty) },
        setup.last_paid_block !== null && { label: 'Last paid block', value: formatCount(setup.last_paid_block) },
        { label: 'Active time', value: node.active_time === null ? MISSING : humanDuration(node.active_time) },
        {
          label: 'Reward frequency',
          value: node.reward_freq === null ? MISSING : `${formatNumber(node.reward_freq)} hours`,
        },
        {
          label: 'Last reward',
          value: node.last_paid ? (
            <time dateTime={node.last_paid} title={utcDateTime(node.last_paid)}>
              {relativeTime(node.last_paid)}
            </time>
          ) : (
            MISSING
          ),
        },
      ]}
    />
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
