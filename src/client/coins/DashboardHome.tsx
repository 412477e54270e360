import { useCallback, useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { CoinRow } from '../../shared/schemas/coins';
import { useSession } from '../session/session';
import { CoinTable } from './CoinTable';
import { PageHeader } from '../layout/DashboardShell';
import { DemoBadge } from './DemoBadge';
import { EmptyState } from '../ui/EmptyState';
import { DEFAULT_SORT, matchesSearch, nextSort, PAGE_SIZE, sortCoins, type Sort, type SortKey } from './coinList';
import { trpc } from '../app/trpc';
import { useNearBottom } from '../ui/useNearBottom';
import { QueryState } from '../ui/QueryState';
import './coins.css';

/**
 * /dashboard: the coin list (platform-and-account.md sections 2 and 4). Listed coins
 * in the main table, 20 at a time while scrolling; delisted coins that still have
 * hosted nodes in their own section below.
 */
export function DashboardHome() {
  const coins = trpc.coins.get_coins.useQuery();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [visible, setVisible] = useState(PAGE_SIZE);

  const { listed, delisted } = useMemo(() => {
    const data = coins.data;
    if (!data) return { listed: [], delisted: [] };
    const rows = sortCoins(
      Object.values(data.data).filter((r) => matchesSearch(r, query)),
      data.order,
      sort,
    );
    return { listed: rows.filter((r) => !r.delisted), delisted: rows.filter((r) => r.delisted) };
  }, [coins.data, query, sort]);

  // While a search text is entered, every match shows.
  const searching = query.trim() !== '';
  const shown = searching ? listed : listed.slice(0, visible);
  const hasMore = shown.length < listed.length;
  const showMore = useCallback(() => setVisible((v) => v + PAGE_SIZE), []);
  useNearBottom(showMore, hasMore, [shown.length]);

  const onSort = (key: SortKey) => setSort((s) => nextSort(s, key));

  return (
    <>
      <PageHeader title="Coins">
        {coins.data?.market_provider === 'demo' && <DemoBadge />}
        <div className="field field-inline">
          <label htmlFor="coin-search" className="sr-only">
            Search coins
          </label>
          <input
            id="coin-search"
            type="search"
            placeholder="Search coins"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            disabled={!coins.data}
          />
        </div>
      </PageHeader>
      <QueryState query={coins} what="The coin list" loadingLabel="Loading coins…">
        {(data) =>
          Object.keys(data.data).length === 0 ? (
            <section className="card">
              <NoCoinsYet />
            </section>
          ) : (
            <>
              <section className="card table-card">
                <CoinTable label="Coins" rows={shown} sort={sort} onSort={onSort} deployable />
                {listed.length === 0 && (
                  <p className="table-empty" role="status">
                    No coins match “{query.trim()}”.
                  </p>
                )}
                {hasMore && (
                  <p className="table-more muted small" aria-live="polite">
                    Showing {shown.length} of {listed.length} coins. Scroll down for more.
                  </p>
                )}
              </section>
              {delisted.length > 0 && <DelistedSection rows={delisted} sort={sort} onSort={onSort} />}
            </>
          )
        }
      </QueryState>
    </>
  );
}

function DelistedSection({ rows, sort, onSort }: { rows: CoinRow[]; sort: Sort; onSort: (key: SortKey) => void }) {
  return (
    <section className="delisted" aria-labelledby="delisted-title">
      <h2 id="delisted-title">Delisted</h2>
      <p className="muted small">
        These coins are no longer supported. Nodes already hosted keep running until they are deleted; new nodes cannot
        be deployed.
      </p>
      <div className="card table-card">
        <CoinTable label="Delisted coins" rows={rows} sort={sort} onSort={onSort} deployable={false} />
      </div>
    </section>
  );
}

function NoCoinsYet() {
  const { user } = useSession();
  return (
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
      The platform operator has not added any coins to the catalog. Supported masternode, validator and staking coins
      will show up here.
    </EmptyState>
  );
}
