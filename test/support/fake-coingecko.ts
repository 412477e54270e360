import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Reply = { status?: number; body?: unknown; raw?: string; delayMs?: number; headers?: Record<string, string> };

/**
 * A FAKE of CoinGecko's API (a paid/public SaaS that cannot run here), on loopback.
 * Replies follow the shapes of recorded CoinGecko responses; tests switch them to
 * broken, partial, slow or rate-limited ones.
 */
export async function startFakeCoinGecko() {
  const requests: string[] = [];
  let override: ((path: string) => Reply | undefined) | undefined;

  const markets = (ids: string[]) =>
    ids.map((id, i) => ({
      id,
      symbol: id.slice(0, 4),
      name: id,
      current_price: 10 + i,
      market_cap: 1_000_000 * (i + 1),
      total_volume: 50_000 * (i + 1),
      price_change_percentage_24h: i % 2 ? -1.25 : 2.5,
      last_updated: '2026-11-22T12:00:00.000Z',
    }));

  function normal(path: string): Reply {
    const url = new URL(path, 'http://x');
    if (url.pathname === '/api/v3/coins/markets')
      return { body: markets((url.searchParams.get('ids') ?? '').split(',').filter(Boolean)) };
    let m = /^\/api\/v3\/coins\/([^/]+)\/tickers$/.exec(url.pathname);
    if (m)
      return {
        body: {
          name: m[1],
          tickers: [
            {
              base: 'DASH',
              target: 'USDT',
              market: { name: 'Binance', identifier: 'binance' },
              last: 25.1,
              volume: 1000,
              converted_last: { usd: 25.1 },
              converted_volume: { usd: 25100 },
              trade_url: 'https://www.binance.com/en/trade/DASH_USDT',
            },
            {
              base: 'DASH',
              target: 'BTC',
              market: { name: 'Kraken', identifier: 'kraken' },
              last: 0.0003,
              volume: 10,
              converted_last: { usd: 25.0 },
              converted_volume: { usd: 250 },
              trade_url: null,
            },
          ],
        },
      };
    m = /^\/api\/v3\/coins\/([^/]+)\/market_chart$/.exec(url.pathname);
    if (m) {
      const now = Date.UTC(2026, 10, 22, 12);
      const n = 70;
      const series = (f: (i: number) => number) =>
        Array.from({ length: n }, (_, i) => [now - (n - 1 - i) * 300_000, f(i)]);
      return {
        body: {
          prices: series((i) => 25 + i / 100),
          market_caps: series((i) => 3e8 + i),
          total_volumes: series((i) => 4e7 + i),
        },
      };
    }
    return { status: 404, body: { error: 'coin not found' } };
  }

  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const reply = override?.(req.url ?? '') ?? normal(req.url ?? '');
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.raw ?? JSON.stringify(reply.body));
    }, reply.delayMs ?? 0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    requests,
    /** Replace replies for matching paths until called again with undefined. */
    set(fn: ((path: string) => Reply | undefined) | undefined) {
      override = fn;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
