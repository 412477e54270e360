import { createHash } from 'node:crypto';
import type { ExchangeTicker, MarketDataProvider, PricePoint, Quote } from './provider';

export type DemoBase = { price: number; volume_24h: number; market_cap: number; ticker: string };

/** A stable number in [0, 1) from a text: the same coin always gets the same series. */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

const STEP_MS = 10 * 60_000;
const EXCHANGES: [string, string][] = [
  ['Binance', 'https://www.binance.com'],
  ['KuCoin', 'https://www.kucoin.com'],
  ['Gate', 'https://www.gate.io'],
  ['MEXC', 'https://www.mexc.com'],
  ['CoinEx', 'https://www.coinex.com'],
  ['Xeggex', 'https://xeggex.com'],
  ['TradeOgre', 'https://tradeogre.com'],
  ['HitBTC', 'https://hitbtc.com'],
];

/**
 * Offline demo data: deterministic series around each coin's catalog figures, so a
 * fresh install without internet shows plausible, moving numbers. Named "demo"
 * wherever it is shown.
 */
export function demoProvider(
  loadBases: () => Promise<Map<string, DemoBase>>,
  now: () => number = Date.now,
): MarketDataProvider {
  const factor = (id: string, at: number) => {
    const t = Math.floor(at / STEP_MS) * STEP_MS;
    const a = unit(`${id}:a`) * Math.PI * 2;
    const b = unit(`${id}:b`) * Math.PI * 2;
    const noise = unit(`${id}:${t}`) - 0.5;
    return (
      1 +
      0.06 * Math.sin((t / (3 * 86_400_000)) * Math.PI * 2 + a) +
      0.025 * Math.sin((t / (7 * 3_600_000)) * Math.PI * 2 + b) +
      0.01 * noise
    );
  };
  const point = (id: string, base: Omit<DemoBase, 'ticker'>, at: number): PricePoint => {
    const f = factor(id, at);
    return {
      at: Math.floor(at / STEP_MS) * STEP_MS,
      price_usd: base.price * f,
      market_cap_usd: base.market_cap * f,
      volume_24h_usd: base.volume_24h * (0.7 + 0.6 * unit(`${id}:v:${Math.floor(at / STEP_MS)}`)),
    };
  };
  return {
    name: 'demo',
    async quotes(ids) {
      const bases = await loadBases();
      const t = now();
      return ids.flatMap((id): Quote[] => {
        const base = bases.get(id);
        if (!base) return [];
        const p = point(id, base, t);
        const before = point(id, base, t - 86_400_000);
        return [
          {
            market_id: id,
            price_usd: p.price_usd,
            volume_24h_usd: p.volume_24h_usd,
            market_cap_usd: p.market_cap_usd,
            change_24h_pct: (p.price_usd / before.price_usd - 1) * 100,
          },
        ];
      });
    },
    async tickers(id) {
      const base = (await loadBases()).get(id);
      if (!base) return [];
      const count = 2 + Math.floor(unit(`${id}:n`) * 4);
      const price = point(id, base, now()).price_usd;
      return Array.from({ length: count }, (_, i): ExchangeTicker => {
        const [exchange, link] = EXCHANGES[Math.floor(unit(`${id}:x${i}`) * EXCHANGES.length)];
        return {
          exchange,
          base: base.ticker,
          target: i % 2 ? 'BTC' : 'USDT',
          price_usd: price * (1 + (unit(`${id}:p${i}`) - 0.5) * 0.004),
          volume_usd: (base.volume_24h / (i + 1.5)) * unit(`${id}:q${i}`),
          link,
        };
      }).sort((a, b) => b.volume_usd - a.volume_usd);
    },
    async history(id, days) {
      const base = (await loadBases()).get(id);
      if (!base) return [];
      const end = now();
      const points = Math.min(days * 24 * 6, 2000);
      return Array.from({ length: points }, (_, i) => point(id, base, end - (points - 1 - i) * STEP_MS));
    },
  };
}
