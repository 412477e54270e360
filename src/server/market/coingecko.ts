import * as v from 'valibot';
import type { Logger } from '../kernel/log';
import {
  RateLimitedError,
  type ExchangeTicker,
  type MarketDataProvider,
  type PricePoint,
  type Quote,
} from './provider';

// Replies are validated item by item: one malformed coin is dropped and logged, the
// rest of the reply is used.
const num = v.pipe(v.number(), v.finite());
const MarketItem = v.object({
  id: v.string(),
  current_price: num,
  market_cap: v.nullable(num),
  total_volume: v.nullable(num),
  price_change_percentage_24h: v.nullish(num),
});
const TickersReply = v.object({ tickers: v.array(v.unknown()) });
const Ticker = v.object({
  base: v.string(),
  target: v.string(),
  market: v.object({ name: v.string() }),
  converted_last: v.object({ usd: num }),
  converted_volume: v.object({ usd: num }),
  trade_url: v.nullish(v.string()),
});
const pairs = v.array(v.tuple([num, num]));
const ChartReply = v.object({ prices: pairs, market_caps: pairs, total_volumes: pairs });

export type CoinGeckoOptions = { baseUrl: string; apiKey?: string; timeoutMs?: number; fetch?: typeof fetch };

/** CoinGecko's public API (v3): /coins/markets, /coins/{id}/tickers, /coins/{id}/market_chart. */
export function coinGeckoProvider(opts: CoinGeckoOptions, log: Logger): MarketDataProvider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;

  async function get(path: string): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.apiKey) headers['x-cg-demo-api-key'] = opts.apiKey;
    const res = await doFetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
    if (res.status === 429) {
      const after = Number(res.headers.get('retry-after'));
      throw new RateLimitedError(Number.isFinite(after) && after > 0 ? after * 1000 : 60_000);
    }
    if (!res.ok) throw new Error(`market-data provider answered HTTP ${res.status} for ${path.split('?')[0]}`);
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`market-data provider sent a reply that is not JSON for ${path.split('?')[0]}`);
    }
  }

  function validItems<T>(schema: v.GenericSchema<unknown, T>, items: unknown[], what: string): T[] {
    const out: T[] = [];
    let dropped = 0;
    for (const item of items) {
      const r = v.safeParse(schema, item);
      if (r.success) out.push(r.output);
      else dropped++;
    }
    if (dropped) log.warn('market data: dropped malformed items', { what, dropped, kept: out.length });
    return out;
  }

  return {
    name: 'coingecko',
    async quotes(ids) {
      const out: Quote[] = [];
      for (let i = 0; i < ids.length; i += 250) {
        const chunk = ids.slice(i, i + 250);
        const reply = await get(
          `/coins/markets?vs_currency=usd&ids=${encodeURIComponent(chunk.join(','))}&per_page=250&page=1&price_change_percentage=24h`,
        );
        if (!Array.isArray(reply)) throw new Error('market-data provider sent markets that are not a list');
        for (const m of validItems(MarketItem, reply, 'markets')) {
          out.push({
            market_id: m.id,
            price_usd: m.current_price,
            volume_24h_usd: m.total_volume ?? 0,
            market_cap_usd: m.market_cap ?? 0,
            change_24h_pct: m.price_change_percentage_24h ?? null,
          });
        }
      }
      return out;
    },
    async tickers(id) {
      const reply = v.safeParse(
        TickersReply,
        await get(`/coins/${encodeURIComponent(id)}/tickers?include_exchange_logo=false&order=volume_desc`),
      );
      if (!reply.success) throw new Error('market-data provider sent tickers in an unknown shape');
      return validItems(Ticker, reply.output.tickers, 'tickers').map((t): ExchangeTicker => ({
        exchange: t.market.name,
        base: t.base,
        target: t.target,
        price_usd: t.converted_last.usd,
        volume_usd: t.converted_volume.usd,
        link: t.trade_url ?? '',
      }));
    },
    async history(id, days) {
      const reply = v.safeParse(
        ChartReply,
        await get(`/coins/${encodeURIComponent(id)}/market_chart?vs_currency=usd&days=${days}`),
      );
      if (!reply.success) throw new Error('market-data provider sent a price history in an unknown shape');
      const { prices, market_caps, total_volumes } = reply.output;
      return prices.map(([at, price], i): PricePoint => ({
        at,
        price_usd: price,
        market_cap_usd: market_caps[i]?.[1] ?? 0,
        volume_24h_usd: total_volumes[i]?.[1] ?? 0,
      }));
    },
  };
}
