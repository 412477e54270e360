import type { DB } from '../db/open';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import { getSetting, setSetting } from '../operator/settings';
import { addHistory, historyCounts, saveExchanges, upsertQuote } from './queries';
import { RateLimitedError, type MarketDataProvider } from './provider';
import { priceTargets } from './targets';

export type MarketStatus = {
  provider: string;
  last_success_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
};

export async function readMarketStatus(db: DB): Promise<MarketStatus | null> {
  const raw = await getSetting(db, 'market_status');
  return raw ? (JSON.parse(raw) as MarketStatus) : null;
}

/**
 * Keeps market data fresh: the recurring job `market.refresh` runs at start and every
 * `intervalMinutes` (cron) plus up to a minute of jitter, so many installs do not hit
 * the price API in the same second. A failed refresh keeps the last good data and
 * records the error for the operator; the next cycle is its retry.
 */
export class MarketRefresher {
  private cursor = 0;
  private pausedUntil = 0;
  /** Called after every successful refresh (e.g. to tell browsers the numbers moved). */
  onRefreshed: () => void = () => {};

  constructor(
    private readonly db: DB,
    private readonly provider: MarketDataProvider,
    private readonly log: Logger,
    private readonly intervalMinutes: number,
    /** Per cycle, how many exchange and history calls (free API tiers allow ~30 calls a minute). */
    private readonly detailCallsPerCycle = 6,
  ) {}

  /** Registers the recurring job; the runner gives it single flight and a deadline. */
  schedule(jobs: JobRunner): void {
    jobs.every('market.refresh', {
      cron: `*/${this.intervalMinutes} * * * *`,
      jitterMs: 60_000,
      atStart: true,
      deadlineMs: 5 * 60_000,
      run: (signal) => this.refresh(signal),
    });
  }

  /** One refresh now. An aborted refresh (its deadline) stops between provider calls. */
  async refresh(signal?: AbortSignal): Promise<void> {
    if (Date.now() < this.pausedUntil) return;
    const started = Date.now();
    try {
      const all = await priceTargets().catalogCoins(this.db);
      const coins = all.filter((c) => c.market_id);
      // Several catalog coins can share one market id (Horizen's two node types).
      const byMarket = new Map<string, string[]>();
      for (const c of coins) byMarket.set(c.market_id!, [...(byMarket.get(c.market_id!) ?? []), c.id]);
      // Accepted deposit currencies that are not hosted coins (Bitcoin, Litecoin, Monero):
      // their price id is the provider's market id, their quote kept under that id.
      const catalog = new Set(all.map((c) => c.id));
      for (const id of await priceTargets().depositPriceIds(this.db))
        if (!catalog.has(id)) byMarket.set(id, [...(byMarket.get(id) ?? []), id]);
      const quotes = await this.provider.quotes([...byMarket.keys()]);
      signal?.throwIfAborted();
      const at = Date.now();
      await this.db.transaction().execute(async (trx) => {
        for (const q of quotes) {
          for (const coinId of byMarket.get(q.market_id) ?? []) {
            await upsertQuote(trx, coinId, this.provider.name, q, at);
            await addHistory(trx, coinId, [
              { at, price_usd: q.price_usd, volume_24h_usd: q.volume_24h_usd, market_cap_usd: q.market_cap_usd },
            ]);
          }
        }
      });
      await this.refreshDetails(
        coins
          .map((c) => ({ id: c.id, market_id: c.market_id! }))
          .filter((c) => quotes.some((q) => q.market_id === c.market_id)),
        signal,
      );
      await this.recordStatus({ last_success_at: Date.now(), last_error: null, last_error_at: null });
      this.log.info('market data refreshed', {
        provider: this.provider.name,
        quotes: quotes.length,
        ms: Date.now() - started,
      });
      this.onRefreshed();
    } catch (err) {
      if (err instanceof RateLimitedError) this.pausedUntil = Date.now() + err.retryAfterMs;
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn('market data refresh failed; keeping the last good data', {
        provider: this.provider.name,
        error: message,
      });
      await this.recordStatus({ last_error: message, last_error_at: Date.now() }).catch(() => {});
    }
  }

  /** Exchanges for a few coins per cycle (round robin), and history for coins that have too little. */
  private async refreshDetails(coins: { id: string; market_id: string }[], signal?: AbortSignal) {
    if (!coins.length) return;
    const counts = await historyCounts(this.db);
    let calls = 0;
    for (const c of coins.filter((c) => (counts.get(c.id) ?? 0) < 60)) {
      if (calls++ >= this.detailCallsPerCycle) return;
      signal?.throwIfAborted();
      const points = await this.provider.history(c.market_id, 1);
      await addHistory(this.db, c.id, points);
    }
    for (let i = 0; i < Math.min(coins.length, this.detailCallsPerCycle - calls); i++) {
      signal?.throwIfAborted();
      const c = coins[this.cursor++ % coins.length];
      await saveExchanges(this.db, c.id, await this.provider.tickers(c.market_id));
    }
  }

  private async recordStatus(patch: Partial<MarketStatus>) {
    const current = (await readMarketStatus(this.db)) ?? {
      provider: this.provider.name,
      last_success_at: null,
      last_error: null,
      last_error_at: null,
    };
    await setSetting(this.db, 'market_status', JSON.stringify({ ...current, ...patch, provider: this.provider.name }));
  }
}
