import { coinNode } from '../../shared/english';
import { Link } from 'wouter';
import type { CoinRow } from '../../shared/schemas/coins';
import { COLUMNS, monthlyFee, type Sort, type SortKey } from './coinList';
import { formatUsd2 } from '../ui/display';
import { CoinLogo } from './CoinLogo';
import { Figure } from '../ui/Figure';
import { TableScroll } from '../ui/TableScroll';

type Props = {
  /** The table's accessible name ("Coins", "Delisted coins"). */
  label: string;
  rows: CoinRow[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  /** Delisted coins cannot be deployed: no Deploy column. */
  deployable: boolean;
};

/** The coin table of /dashboard: sortable headers, one row per coin. */
export function CoinTable({ label, rows, sort, onSort, deployable }: Props) {
  return (
    <TableScroll>
      <table className="table coin-table" aria-label={label}>
        <thead>
          <tr>
            {COLUMNS.map((col) => {
              const active = sort.key === col.key;
              return (
                <th
                  key={col.key}
                  scope="col"
                  aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  className={col.key === 'coin' ? undefined : 'num'}
                >
                  <button type="button" className="sort-button" onClick={() => onSort(col.key)}>
                    {col.label}
                    <span className={`sort-mark${active ? ' is-active' : ''}`} aria-hidden="true">
                      {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
            {deployable && (
              <th scope="col">
                <span className="sr-only">Deploy</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <CoinTableRow key={row.id} row={row} deployable={deployable} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The columns between the coin and its fee: each a display object of the row, in header order. */
const FIGURE_COLUMNS = [
  'collateral',
  'masternode_value',
  'roi',
  'revenue_mo',
  'hosted_mns',
  'price_change',
] as const satisfies readonly (SortKey & keyof CoinRow)[];

/** Each column's header, shown beside its value when a row is a card (phone width, coins.css). */
const LABEL = Object.fromEntries(COLUMNS.map((c) => [c.key, c.label])) as Record<SortKey, string>;

function CoinTableRow({ row, deployable }: { row: CoinRow; deployable: boolean }) {
  const fee = monthlyFee(row);
  return (
    <tr data-coin={row.id}>
      <td>
        <Link href={`/dashboard/view_coin?coin=${encodeURIComponent(row.id)}`} className="coin-cell">
          <CoinLogo id={row.id} ticker={row.ticker} src={row.logo} />
          <span className="coin-name">
            <span className="coin-label">{row.label}</span>
            <span className="coin-ticker">{row.ticker}</span>
          </span>
        </Link>
        {(row.maintenance || row.delisted || row.coming_soon) && (
          <span className="coin-flags">
            {row.coming_soon && <span className="flag flag-info">Coming soon</span>}
            {row.maintenance && <span className="flag flag-warning">Maintenance</span>}
            {row.delisted && <span className="flag flag-danger">Delisted</span>}
          </span>
        )}
      </td>
      {FIGURE_COLUMNS.map((key) => (
        <td key={key} className="num" data-col={key} data-label={LABEL[key]}>
          <Figure value={row[key]} />
        </td>
      ))}
      <td className="num" data-col="monthly_fee" data-label={LABEL.monthly_fee}>
        {fee === 0 ? <span className="text-green">Free</span> : formatUsd2(fee)}
      </td>
      {deployable && (
        <td className="actions">
          {row.maintenance || row.coming_soon ? (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled
              aria-label={`Deploy ${row.label}`}
              title={
                row.coming_soon
                  ? `${coinNode(row.label, true)} are coming soon`
                  : 'Deployments of this coin are paused for maintenance'
              }
            >
              Deploy
            </button>
          ) : (
            <Link
              href={`/dashboard/deploy?coin=${encodeURIComponent(row.id)}`}
              className="btn btn-primary btn-sm"
              aria-label={`Deploy ${row.label}`}
            >
              Deploy
            </Link>
          )}
        </td>
      )}
    </tr>
  );
}
