import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog, bundledCatalogPath } from '../src/server/coins/import';
import { coinGeckoProvider } from '../src/server/market/coingecko';
import { demoProvider } from '../src/server/market/demo';
import { demoBasesFromCatalog } from '../src/server/coins/demo-market';
import { RateLimitedError } from '../src/server/market/provider';
import { findQuote, lastHistory } from '../src/server/market/queries';
import { MarketRefresher, readMarketStatus } from '../src/server/market/refresher';
import { makeDeps, type Deps } from './support/caller';
import { startFakeCoinGecko } from './support/fake-coingecko';

let fake: Awaited<ReturnType<typeof startFakeCoinGecko>>;
let d: Deps;
beforeAll(async () => {
  fake = await startFakeCoinGecko();
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
});
afterAll(async () => {
  await fake.close();
  await d.close();
});

const provider = (timeoutMs = 2000) => coinGeckoProvider({ baseUrl: fake.baseUrl, timeoutMs }, d.log);

describe('CoinGecko adapter against a fake server', () => {
  it('reads markets, tickers and history', async () => {
    const quotes = await provider().quotes(['dash', 'zencash']);
    expect(quotes).toEqual([
      { market_id: 'dash', price_usd: 10, volume_24h_usd: 50_000, market_cap_usd: 1_000_000, change_24h_pct: 2.5 },
      {
        market_id: 'zencash',
        price_usd: 11,
        volume_24h_usd: 100_000,
        market_cap_usd: 2_000_000,
        change_24h_pct: -1.25,
      },
    ]);
    const tickers = await provider().tickers('dash');
    expect(tickers[0]).toEqual({
      exchange: 'Binance',
      base: 'DASH',
      target: 'USDT',
      price_usd: 25.1,
      volume_usd: 25100,
      link: 'https://www.binance.com/en/trade/DASH_USDT',
    });
    expect(tickers[1].link).toBe('');
    const history = await provider().history('dash', 1);
    expect(history).toHaveLength(70);
    expect(history[0]).toMatchObject({ price_usd: 25, market_cap_usd: 3e8, volume_24h_usd: 4e7 });
  });

  it('drops malformed items of a partial reply and keeps the rest', async () => {
    fake.set((p) =>
      p.includes('/coins/markets')
        ? {
            body: [
              { id: 'dash', current_price: 'lots' },
              { id: 'firo', current_price: 1.5, market_cap: null, total_volume: 7, price_change_percentage_24h: null },
              null,
            ],
          }
        : undefined,
    );
    try {
      expect(await provider().quotes(['dash', 'firo'])).toEqual([
        { market_id: 'firo', price_usd: 1.5, volume_24h_usd: 7, market_cap_usd: 0, change_24h_pct: null },
      ]);
      expect(d.log.lines.some((l) => l.includes('dropped malformed items'))).toBe(true);
    } finally {
      fake.set(undefined);
    }
  });

  it.each([
    ['broken JSON', { raw: '{"oops' }, /not JSON/],
    ['wrong shape', { body: { error: 'nope' } }, /not a list/],
    ['server error', { status: 502, body: {} }, /HTTP 502/],
  ])('fails clearly on %s', async (_n, reply, message) => {
    fake.set(() => reply);
    try {
      await expect(provider().quotes(['dash'])).rejects.toThrow(message);
    } finally {
      fake.set(undefined);
    }
  });

  it('gives up on a slow reply', async () => {
    fake.set(() => ({ body: [], delayMs: 1500 }));
    try {
      await expect(provider(300).quotes(['dash'])).rejects.toThrow(/timeout|aborted/i);
    } finally {
      fake.set(undefined);
    }
  });

  it('reports rate limiting with the advised wait', async () => {
    fake.set(() => ({ status: 429, body: { status: { error_code: 429 } }, headers: { 'retry-after': '42' } }));
    try {
      const err = await provider()
        .quotes(['dash'])
        .catch((e) => e);
      expect(err).toBeInstanceOf(RateLimitedError);
      expect(err.retryAfterMs).toBe(42_000);
    } finally {
      fake.set(undefined);
    }
  });
});

describe('refreshing market data', () => {
  it('stores quotes and history, keeps the last good data when the provider fails, and pauses when rate limited', async () => {
    const refresher = new MarketRefresher(d.db, provider(), d.log, 10, 100);
    await refresher.refresh();
    const good = await findQuote(d.db, 'dash');
    expect(good).toMatchObject({ provider: 'coingecko' });
    // Both Horizen node types share the market id "zencash".
    expect((await findQuote(d.db, 'zen42'))?.price_usd).toBe((await findQuote(d.db, 'zen500'))?.price_usd);
    expect(JSON.parse(good!.exchanges).length).toBeGreaterThan(0);
    expect((await lastHistory(d.db, 'dash', 60)).length).toBe(60);
    expect((await readMarketStatus(d.db))?.last_error).toBeNull();

    fake.set(() => ({ raw: 'garbage' }));
    await refresher.refresh();
    expect(await findQuote(d.db, 'dash')).toEqual(good);
    const status = await readMarketStatus(d.db);
    expect(status?.last_error).toMatch(/not JSON/);
    expect(status?.last_success_at).toBeGreaterThan(0);

    fake.set(() => ({ status: 429, body: {}, headers: { 'retry-after': '120' } }));
    await refresher.refresh();
    const before = fake.requests.length;
    fake.set(undefined);
    await refresher.refresh(); // still paused: no request goes out
    expect(fake.requests.length).toBe(before);
    expect(await findQuote(d.db, 'dash')).toEqual(good);
  });

  it('quotes the accepted deposit currencies too, by their price id when it is not a hosted coin', async () => {
    await d.db
      .insertInto('deposit_currencies')
      .values({
        id: 'ltc',
        label: 'Litecoin',
        ticker: 'LTC',
        kind: 'bitcoin',
        confirmations: 6,
        minimum: 10_000,
        price_coin: 'litecoin',
        decimals: 8,
        rpc_url: 'http://127.0.0.1:1',
        enabled: 1,
        watch_from: 0,
        created_at: Date.now(),
      })
      .execute();
    fake.requests.length = 0;
    await new MarketRefresher(d.db, provider(), d.log, 10, 0).refresh();
    expect(fake.requests.some((r) => /[?&]ids=[^&]*litecoin/.test(r))).toBe(true);
    expect(await findQuote(d.db, 'litecoin')).toMatchObject({ provider: 'coingecko' });
    expect((await findQuote(d.db, 'litecoin'))!.price_usd).toBeGreaterThan(0);
  });
});

describe('demo provider', () => {
  it('is deterministic, moves over time and covers every catalog coin', async () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const demo = demoProvider(
      () => demoBasesFromCatalog(d.db),
      () => now,
    );
    const a = await demo.quotes(['dash', 'zencash', 'nothing-here']);
    expect(a.map((q) => q.market_id)).toEqual(['dash', 'zencash']);
    expect(await demo.quotes(['dash'])).toEqual([a[0]]);
    expect(a[0].price_usd).toBeGreaterThan(42.5 * 0.85);
    expect(a[0].price_usd).toBeLessThan(42.5 * 1.15);
    now += 3 * 3_600_000;
    expect((await demo.quotes(['dash']))[0].price_usd).not.toBe(a[0].price_usd);
    expect((await demo.history('dash', 1)).length).toBe(144);
    expect((await demo.tickers('dash')).length).toBeGreaterThanOrEqual(2);
  });
});
