import type { ReactNode } from 'react';
import { EmptyState } from '../ui/EmptyState';
import { Pager } from '../ui/Pager';
import { TableScroll } from '../ui/TableScroll';

export type MoneyRow = { date: string; description: string; amount: number };

const usd = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/**
 * An amount as it was moved: two decimals, more only when the ledger has them (a
 * $0.063 daily fee is not rounded to $0.06 in the history), "-" when the balance went down.
 */
export function formatAmount(n: number): string {
  return `${n < 0 ? '-' : ''}$${usd.format(Math.abs(n))}`;
}

/**
 * "2026-11-23 18:08 UTC", breakable between the day and the time only. The server's times
 * are UTC (the daily charge's day too); said, as on the node pages and the card payments,
 * so nobody reads them as their own clock.
 */
function DateTime({ value }: { value: string }) {
  const [day, time] = value.split(' ');
  return (
    <>
      <span className="nowrap">{day}</span> {time && <span className="nowrap">{time} UTC</span>}
    </>
  );
}

type Props = {
  /** The table's accessible name: "Transaction history". */
  label: string;
  rows: MoneyRow[];
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  empty: { title: string; text: ReactNode };
};

/** The Date / Description / Amount table of the billing and affiliate pages, paged on the server. */
export function MoneyTable({ label, rows, page, perPage, total, onPage, empty }: Props) {
  if (total === 0) return <EmptyState title={empty.title}>{empty.text}</EmptyState>;
  return (
    <>
      <TableScroll>
        <table className="table money-table" aria-label={label}>
          <thead>
            <tr>
              <th>Date</th>
              <th>Description</th>
              <th className="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${page}-${i}`} data-testid="money-row">
                <td>
                  <DateTime value={r.date} />
                </td>
                <td>{r.description}</td>
                <td className={`num nowrap ${r.amount < 0 ? 'amount-down' : r.amount > 0 ? 'amount-up' : ''}`}>
                  {formatAmount(r.amount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pager page={page} total={total} perPage={perPage} onPage={onPage} label={`${label} pages`} />
    </>
  );
}
