import type { CoinRow } from '../../shared/schemas/coins';

/**
 * The coin list's rules, apart from React: columns, search, sort and paging
 * (platform-and-account.md sections 2, 4 and 9).
 */

export type SortKey =
  'coin' | 'collateral' | 'masternode_value' | 'roi' | 'revenue_mo' | 'hosted_mns' | 'price_change' | 'monthly_fee';
export type SortDir = 'asc' | 'desc';
export type Sort = { key: SortKey; dir: SortDir };

/** Default sort: most hosted nodes first; the server's order breaks ties. */
export const DEFAULT_SORT: Sort = { key: 'hosted_mns', dir: 'desc' };

/** 20 rows at first, 20 more per scroll step. */
export const PAGE_SIZE = 20;

/** Days in the monthly fee (monthly fee = 30 × daily host price). */
export const DAYS_PER_MONTH = 30;

export const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'coin', label: 'Coin' },
  { key: 'collateral', label: 'Collateral' },
  { key: 'masternode_value', label: 'Node value' },
  { key: 'roi', label: 'ROI' },
  { key: 'revenue_mo', label: 'Monthly revenue' },
  { key: 'hosted_mns', label: 'Hosted nodes' },
  { key: 'price_change', label: '24h change' },
  { key: 'monthly_fee', label: 'Monthly fee' },
];

export function monthlyFee(row: Pick<CoinRow, 'host_price'>): number {
  return DAYS_PER_MONTH * row.host_price;
}

function sortValue(row: CoinRow, key: SortKey): number | string | null {
  switch (key) {
    case 'coin':
      return row.label.toLowerCase();
    case 'monthly_fee':
      return monthlyFee(row);
    default:
      return row[key].value;
  }
}

/**
 * Sorted copy. Missing figures ("--") go last in both directions, since they are not
 * small or large; equal figures keep the server's order (hosted nodes first).
 */
export function sortCoins(rows: CoinRow[], serverOrder: string[], sort: Sort): CoinRow[] {
  const rank = new Map(serverOrder.map((id, i) => [id, i]));
  const rankOf = (r: CoinRow) => rank.get(r.id) ?? Number.MAX_SAFE_INTEGER;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = sortValue(a, sort.key);
    const vb = sortValue(b, sort.key);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) {
      return (va < vb ? -1 : 1) * sign;
    }
    return rankOf(a) - rankOf(b);
  });
}

/** A click on a column header: the same column flips direction, a new one starts descending (names ascending). */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: key === 'coin' ? 'asc' : 'desc' };
}

/** Search matches the label, the ticker or the id, ignoring case. */
export function matchesSearch(row: Pick<CoinRow, 'id' | 'label' | 'ticker'>, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [row.label, row.ticker, row.id].some((s) => s.toLowerCase().includes(needle));
}
