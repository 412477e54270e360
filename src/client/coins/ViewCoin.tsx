import { useEffect } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import type { CoinDetail } from '../../shared/schemas/coins';
import { ChainData } from './ChainData';
import { CoinAlerts } from './CoinAlerts';
import { CoinCharts } from './CoinCharts';
import { CoinHeader } from './CoinHeader';
import { CoinLinks } from './CoinLinks';
import { ExchangesTable } from './ExchangesTable';
import { IncomeCalculator } from './IncomeCalculator';
import { MarketData } from './MarketData';
import { StatTable } from './StatTable';
import { PageLoading } from '../ui/Spinner';
import { errorCode } from '../app/errors';
import { pageTitle } from '../app/site';
import { trpc } from '../app/trpc';
import { QueryError } from '../ui/QueryState';
import './coins.css';

/**
 * /dashboard/view_coin?coin={id} (platform-and-account.md section 2). No coin or an
 * unknown coin goes back to /dashboard; a coin without a price has nothing to show
 * here, so it goes to its deploy page.
 */
export function ViewCoin() {
  const [params] = useSearchParams();
  const id = params.get('coin')?.trim() ?? '';
  if (!id) return <Redirect to="/dashboard" replace />;
  return <CoinPage key={id} id={id} />;
}

function CoinPage({ id }: { id: string }) {
  const coin = trpc.coins.get_coin.useQuery({ coin: id });
  // Data first: a failed background refetch keeps showing the coin.
  if (!coin.data) {
    if (coin.isPending) return <PageLoading label="Loading coin…" />;
    // NOT_FOUND: no such coin; BAD_REQUEST: not even a coin id. Both are "unknown coin".
    const code = errorCode(coin.error);
    if (code === 'NOT_FOUND' || code === 'BAD_REQUEST') return <Redirect to="/dashboard" replace />;
    return <QueryError what="This coin" error={coin.error} retry={() => void coin.refetch()} />;
  }
  const data = coin.data.data;
  if (!data.market_data) return <Redirect to={`/dashboard/deploy?coin=${encodeURIComponent(data.id)}`} replace />;
  return <CoinView coin={data} market={data.market_data} />;
}

function CoinView({ coin, market }: { coin: CoinDetail; market: NonNullable<CoinDetail['market_data']> }) {
  // The route's generic "Coin" title was set on mount; the coin's name is known only now.
  useEffect(() => {
    document.title = pageTitle(`${coin.label} (${coin.ticker})`);
  }, [coin.label, coin.ticker]);
  return (
    <div className="coin-page">
      <CoinHeader coin={coin} />
      <CoinAlerts alerts={coin.alerts} />
      <CoinLinks links={coin.links} />
      <div className="coin-grid">
        <MarketData market={market} provider={coin.market_provider} />
        <ChainData wallet={coin.wallet} latestBlock={coin.latest_block} simulated={coin.chain_simulated} />
      </div>
      <CoinCharts charts={coin.charts} />
      <IncomeCalculator coin={coin} price={market.price} />
      <div className="coin-grid">
        <StatTable title="Specifications" rows={coin.specifications} />
        <StatTable title="Statistics" rows={coin.statistics} />
      </div>
      <ExchangesTable exchanges={coin.exchanges} />
    </div>
  );
}
