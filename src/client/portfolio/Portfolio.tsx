import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../layout/DashboardShell';
import { EmptyState } from '../ui/EmptyState';
import { ExportView } from './ExportView';
import { PortfolioTable } from './PortfolioTable';
import { QueuePanel } from './QueuePanel';
import { RemovedNodes } from './RemovedNodes';
import { Stat } from '../ui/Stat';
import { formatCount, formatUsd2, MISSING } from '../ui/display';
import { blockMatches, exportBlocks, portfolioRows, rowMatches } from '../nodes/portfolio';
import { RewardHistory } from '../nodes/RewardHistory';
import { monthlyIncomeText } from '../nodes/rewards';
import { trpc } from '../app/trpc';
import { runwayValue, useBalance } from '../layout/Runway';
import { QueryState } from '../ui/QueryState';
import './portfolio.css';

type View = 'list' | 'export';

/**
 * /dashboard/portfolio (platform-and-account.md section 2): the user's nodes with
 * stats, search, a list and an export view, and the build queue beside them. A
 * refresh_masternodes or refresh_queue event refetches in the background (live.tsx).
 */
export function Portfolio() {
  const nodes = trpc.nodes.get_masternodes.useQuery();
  const balance = useBalance();
  // "Monthly income" is what the rewards of the last 30 days were worth when they came.
  const rewards = trpc.nodes.get_rewards.useQuery({});
  const [query, setQuery] = useState('');
  const [view, setView] = useState<View>('list');
  const data = nodes.data;

  const rows = useMemo(() => (data ? portfolioRows(data) : []), [data]);
  const blocks = useMemo(() => (data ? exportBlocks(data.masternodes) : []), [data]);
  const shownRows = rows.filter((r) => rowMatches(r, query));
  const shownBlocks = blocks.filter((b) => blockMatches(b, query));
  const searching = query.trim() !== '';

  return (
    <>
      <PageHeader title="Portfolio">
        {data && rows.length > 0 && (
          <>
            <div className="field field-inline">
              <label htmlFor="node-search" className="sr-only">
                Search nodes
              </label>
              <input
                id="node-search"
                type="search"
                placeholder={view === 'list' ? 'Search nodes' : 'Search configuration'}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            </div>
            <div className="segmented" role="group" aria-label="View">
              <button type="button" aria-pressed={view === 'list'} onClick={() => setView('list')}>
                List view
              </button>
              <button type="button" aria-pressed={view === 'export'} onClick={() => setView('export')}>
                Export view
              </button>
            </div>
          </>
        )}
      </PageHeader>
      <section className="stats portfolio-stats" aria-label="Portfolio totals">
        <Stat label="Nodes" value={data ? formatCount(rows.length) : MISSING} />
        <Stat label="Total worth" value={data ? formatUsd2(data.total_worth) : MISSING} />
        <Stat label="Monthly income" value={monthlyIncomeText(rewards.data)} />
        <Stat label="Monthly expenses" value={data ? formatUsd2(data.monthly_cost) : MISSING} />
        <Stat label="Runway" value={runwayValue(balance.data)} />
      </section>
      <QueryState query={nodes} what="Your nodes" loadingLabel="Loading your nodes…">
        {(data) =>
          rows.length === 0 && data.queue.length === 0 ? (
            <section className="card">
              <EmptyState
                title="You don't have any masternodes"
                action={
                  <Link href="/dashboard" className="btn btn-primary">
                    Deploy now
                  </Link>
                }
              >
                Nodes you deploy are listed here with their status, rewards and worth.
              </EmptyState>
            </section>
          ) : (
            <div className={`portfolio-layout${data.queue.length ? ' with-queue' : ''}`}>
              <div className="portfolio-main">
                {view === 'list' ? (
                  <>
                    <section className="card table-card">
                      <PortfolioTable rows={shownRows} />
                      {shownRows.length === 0 && <p className="table-empty">No nodes match “{query.trim()}”.</p>}
                    </section>
                    <RewardHistory />
                  </>
                ) : (
                  <ExportView blocks={shownBlocks} searching={searching} />
                )}
              </div>
              {data.queue.length > 0 && <QueuePanel queue={data.queue} />}
            </div>
          )
        }
      </QueryState>
      <RemovedNodes />
    </>
  );
}
