/** What the platform asks of a market-data source (prices, exchanges, history). */
export type Quote = {
  market_id: string;
  price_usd: number;
  volume_24h_usd: number;
  market_cap_usd: number;
  change_24h_pct: number | null;
};
export type ExchangeTicker = {
  exchange: string;
  base: string;
  target: string;
  price_usd: number;
  volume_usd: number;
  link: string;
};
export type PricePoint = { at: number; price_usd: number; volume_24h_usd: number; market_cap_usd: number };

export interface MarketDataProvider {
  /** Shown to users and the operator; "demo" means invented numbers. */
  readonly name: 'coingecko' | 'demo';
  /** Quotes for the ids it knows; unknown ids are simply absent. */
  quotes(marketIds: string[]): Promise<Quote[]>;
  tickers(marketId: string): Promise<ExchangeTicker[]>;
  history(marketId: string, days: number): Promise<PricePoint[]>;
}

/** The provider refused for now (HTTP 429); try again after `retryAfterMs`. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limited by the market-data provider; retry after ${Math.round(retryAfterMs / 1000)} s`);
  }
}
