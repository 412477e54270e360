import { Link } from 'wouter';
import { formatBalance } from '../../shared/format';
import type { MasternodeListItem, QueueItem } from '../../shared/schemas/nodes';
import { MISSING } from '../ui/display';
import { humanDuration, relativeTime, utcDate, utcDateTime } from '../nodes/nodeTime';
import { nodeName, type PortfolioRow } from '../nodes/portfolio';
import { CoinLogo } from '../coins/CoinLogo';
import { TrashIcon } from '../ui/Icons';
import { NodeStatusBadge } from '../nodes/StatusBadges';
import { SimulatedBadge } from '../ui/SimulatedBadge';
import { TableScroll } from '../ui/TableScroll';
import { useShownAlias } from '../nodes/AliasEditor';

const nodeHref = (mnId: string) => `/dashboard/masternode/${encodeURIComponent(mnId)}`;

/** The portfolio's list view: deploying queue items first, then the nodes. No pagination. */
export function PortfolioTable({ rows }: { rows: PortfolioRow[] }) {
  return (
    <TableScroll>
      <table className="table portfolio-table" aria-label="Masternodes">
        <thead>
          <tr>
            <th scope="col">Coin</th>
            <th scope="col">ID</th>
            <th scope="col">Status</th>
            <th scope="col">Active time</th>
            <th scope="col">Last reward</th>
            <th scope="col" className="num">
              Worth
            </th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) =>
            r.kind === 'queue' ? (
              <QueueRow key={`q-${r.item.mn_id}`} item={r.item} />
            ) : (
              <NodeRow key={r.node.mn_id} node={r.node} />
            ),
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}

function CoinCell({ id, label, ticker, logo }: { id: string; label: string; ticker: string; logo?: string }) {
  return (
    <span className="coin-cell">
      <CoinLogo id={id} ticker={ticker} src={logo} />
      <span className="coin-name">
        <span className="coin-label">{label}</span>
        <span className="coin-ticker">{ticker}</span>
      </span>
    </span>
  );
}

function NodeRow({ node: cached }: { node: MasternodeListItem }) {
  const node = useShownAlias(cached);
  const name = nodeName(node);
  const c = node.currency_data;
  return (
    <tr data-mn={node.mn_id}>
      <td>
        <CoinCell id={node.currency} label={c.label} ticker={c.ticker} logo={node.logo} />
      </td>
      <td className="mn-id">
        <Link href={nodeHref(node.mn_id)}>{name}</Link>
        {node.alias && <span className="muted small mn-id-sub">{node.mn_id}</span>}
        {node.simulated && <SimulatedBadge />}
      </td>
      <td data-label="Status">
        <NodeStatusBadge status={node.status} />
      </td>
      <td data-col="active_time" data-label="Active time">
        {node.active_time === null ? MISSING : humanDuration(node.active_time)}
      </td>
      <td data-col="last_reward" data-label="Last reward">
        {node.last_paid ? (
          <time dateTime={node.last_paid} title={utcDateTime(node.last_paid)}>
            {relativeTime(node.last_paid)}
          </time>
        ) : (
          MISSING
        )}
      </td>
      <td className="num" data-col="worth" data-label="Worth">
        {node.worth === '--' ? MISSING : `$${formatBalance(node.worth)}`}
      </td>
      <td data-col="created" data-label="Created">
        <time dateTime={node.create_date} title={utcDateTime(node.create_date)}>
          {utcDate(node.create_date)}
        </time>
      </td>
      <td className="actions">
        <Link href={nodeHref(node.mn_id)} className="btn btn-secondary btn-sm" aria-label={`Open ${name}`}>
          View
        </Link>
        <Link
          href={`${nodeHref(node.mn_id)}?tab=delete`}
          className="btn btn-ghost btn-sm icon-button"
          aria-label={`Delete ${name}`}
          title="Delete"
        >
          <TrashIcon />
        </Link>
      </td>
    </tr>
  );
}

function QueueRow({ item }: { item: QueueItem }) {
  const c = item.currency_data;
  return (
    <tr data-mn={item.mn_id} data-queue="true">
      <td>
        <CoinCell id={item.currency} label={c.label} ticker={c.ticker} />
      </td>
      <td className="mn-id">{item.name}</td>
      <td data-label="Status">
        <span className="node-status status-grey">
          <span className="status-dot status-dot-pulse" aria-hidden="true" />
          Deploying...
        </span>
      </td>
      <td data-label="Active time">{MISSING}</td>
      <td data-label="Last reward">{MISSING}</td>
      <td className="num" data-label="Worth">
        {MISSING}
      </td>
      <td data-label="Created">{MISSING}</td>
      <td className="actions">{MISSING}</td>
    </tr>
  );
}
