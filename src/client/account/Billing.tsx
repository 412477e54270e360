import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import type { PendingDeposit } from '../../shared/schemas/billing';
import { trpc } from '../app/trpc';
import { CardTab } from '../billing/CardTab';
import { CryptoTab } from '../billing/CryptoTab';
import { GiftCodeTab } from '../billing/GiftCodeTab';
import { runwayValue, useBalance } from '../layout/Runway';
import { PageHeader } from '../layout/DashboardShell';
import { QueryError, QueryState } from '../ui/QueryState';
import { formatCount, formatUsd2, MISSING } from '../ui/display';
import { Stat } from '../ui/Stat';
import { MoneyTable } from './MoneyTable';
import { MoneyExports } from './MoneyExports';
import './billing.css';

/** Transaction history rows per page (platform-and-account.md section 9). */
export const HISTORY_PAGE_SIZE = 5;

type Tab = 'crypto' | 'card' | 'gift';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'crypto', label: 'Crypto' },
  { id: 'card', label: 'Stripe' },
  { id: 'gift', label: 'Gift Code' },
];
const tabId = (t: Tab) => `billing-tab-${t}`;
const panelId = (t: Tab) => `billing-panel-${t}`;

/**
 * /dashboard/billing: the balance and what the nodes cost (get_balance), the ways to
 * add funds (one tab each), deposits on their way and the history (get_transactions,
 * paged on the server). Every change of the ledger sends `update_balance` and
 * `refresh_transactions`, which refetch these queries (liveQueries.ts).
 */
export function Billing() {
  const balance = useBalance();
  const [page, setPage] = useState(1);
  const history = trpc.billing.get_transactions.useQuery(
    { page, per_page: HISTORY_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
  const b = balance.data;

  return (
    <>
      <PageHeader title="Billing" />
      <section className="stats" aria-label="Billing totals">
        <Stat label="Account balance" value={b ? formatUsd2(b.balance) : MISSING} />
        <Stat label="Total nodes" value={b ? formatCount(b.total_masternodes) : MISSING} />
        <Stat label="Monthly expenses" value={b ? formatUsd2(b.monthly_cost) : MISSING} />
        <Stat label="Runway" value={runwayValue(b)} />
      </section>
      {balance.isError && !b && (
        <QueryError what="Your balance" error={balance.error} retry={() => void balance.refetch()} />
      )}
      <FundingTabs />
      <section className="card billing-section" aria-labelledby="pending-title">
        <h2 id="pending-title">Pending deposits</h2>
        <QueryState query={history} what="Pending deposits" loadingLabel="Loading pending deposits…">
          {(data) => <PendingList pending={data.pending} />}
        </QueryState>
      </section>
      <section className="card table-card billing-section" aria-labelledby="history-title">
        <h2 id="history-title">Transaction history</h2>
        <MoneyExports />
        <QueryState query={history} what="The transaction history" loadingLabel="Loading transactions…">
          {(data) => (
            <MoneyTable
              label="Transaction history"
              rows={data.transactions}
              page={page}
              perPage={HISTORY_PAGE_SIZE}
              total={data.total}
              onPage={setPage}
              empty={{
                title: 'No transactions yet',
                text: 'Deposits, payments and the daily hosting fees of your nodes will be listed here.',
              }}
            />
          )}
        </QueryState>
      </section>
    </>
  );
}

function FundingTabs() {
  // Back from the card provider's page (`?card=success|cancelled`): its tab says what happened.
  const [tab, setTab] = useState<Tab>(() =>
    new URLSearchParams(window.location.search).has('card') ? 'card' : 'crypto',
  );
  return (
    <section className="card billing-funding" aria-label="Add funds">
      <div role="tablist" aria-label="Payment methods" className="billing-tabs">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={tabId(t.id)}
            aria-selected={tab === t.id}
            aria-controls={panelId(t.id)}
            tabIndex={tab === t.id ? 0 : -1}
            className="billing-tab"
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length].id;
              setTab(next);
              document.getElementById(tabId(next))?.focus();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="billing-panel">
        {tab === 'crypto' ? <CryptoTab /> : tab === 'card' ? <CardTab /> : <GiftCodeTab />}
      </div>
    </section>
  );
}

/** A pending deposit's amount is in its coin, not USD (it is priced when credited): "0.15 Litecoin", never "$0.15". */
const coinAmount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 12 });

function PendingList({ pending }: { pending: PendingDeposit[] }) {
  if (pending.length === 0) return <p className="muted">No deposits waiting for confirmations.</p>;
  return (
    <ul className="pending-list">
      {pending.map((p, i) => (
        <li key={`${p.date}-${i}`} data-testid="pending-deposit">
          <span className="pending-what">
            {coinAmount.format(p.amount)} {p.currency_label}
          </span>
          <span className="muted">{p.date} UTC</span>
          <span className="pending-confirmations">
            {p.confirmations} / {p.max_confirmations} confirmations
          </span>
        </li>
      ))}
    </ul>
  );
}
