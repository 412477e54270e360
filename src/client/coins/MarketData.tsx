import { formatPercent, formatPrice } from '../../shared/format';
import type { CoinDetail } from '../../shared/schemas/coins';
import { changeClass } from '../ui/display';
import { DemoBadge } from './DemoBadge';

type Market = NonNullable<CoinDetail['market_data']>;

/** Price, 24 h change (green up, red down), market cap and volume. */
export function MarketData({ market, provider }: { market: Market; provider: string }) {
  return (
    <section className="card market-data" aria-labelledby="market-title">
      <div className="card-head">
        <h2 id="market-title">Market data</h2>
        {provider === 'demo' && <DemoBadge />}
      </div>
      <dl className="figures">
        <div>
          <dt>Price</dt>
          <dd data-testid="market-price">${formatPrice(market.price)}</dd>
        </div>
        <div>
          <dt>24h change</dt>
          <dd className={changeClass(market.price_change)}>{formatPercent(market.price_change)}</dd>
        </div>
        <div>
          <dt>Market cap</dt>
          <dd>{market.market_cap_text}</dd>
        </div>
        <div>
          <dt>Volume (24h)</dt>
          <dd>{market.total_volume_text}</dd>
        </div>
      </dl>
    </section>
  );
}
