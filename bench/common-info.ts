import { startTestServer, stopTestServer } from '../test/support/server';
import { bareRoute, liftCallRates, load, loadGenerator, row, TABLE_HEAD } from './serve';
import { machine, writeSection } from './report';

/**
 * GET /api/get_common_info (token lookup, user, ledger balance, maintenance flag, JSON)
 * against a bare Hono route that returns a constant JSON body, in the same process and
 * run, 50 requests in flight.
 */
export async function benchCommonInfo() {
  const s = await startTestServer({ LOG_LEVEL: 'warn' });
  const restoreRates = liftCallRates();
  const bare = await bareRoute({ success: true, info: { username: 'bench' } });
  try {
    const post = (path: string, body: unknown) =>
      fetch(s.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post('/public_api/register', { username: 'bench', email: 'bench@example.test', password: 'bench-pass-1' });
    const { auth_token } = await post('/public_api/login', { username: 'bench', password: 'bench-pass-1' });
    const headers = { authorization: `Bearer ${auth_token}` };

    const bareResult = await load(bare.url);
    // The yardstick: /healthz of the same process, through the same middleware.
    const healthz = await load(`${s.url}/healthz`);
    const api = await load(`${s.url}/api/get_common_info`, { headers });
    if (api.errors || bareResult.errors || healthz.errors)
      throw new Error(`errors during the run: api ${api.errors}, bare ${bareResult.errors}, healthz ${healthz.errors}`);
    const ratio = api.rps / bareResult.rps;
    const toHealthz = api.rps / healthz.rps;
    const verdict = toHealthz >= 0.5 && api.p99 < 20 ? 'meets' : 'misses';
    writeSection(
      'get_common_info',
      `## GET /api/get_common_info vs a bare Hono route

${new Date().toISOString().slice(0, 10)} on ${machine()}.
50 concurrent keep-alive connections from ${loadGenerator}, 1 s warm-up, 5 s measured; call budgets on with their rates lifted (one client is a flood to them); request logging at warn (on, as in production, but below the level that prints).

${TABLE_HEAD}
${row('bare Hono route (constant JSON)', bareResult)}
${row('GET /healthz (the same server)', healthz)}
${row('GET /api/get_common_info (REST adapter → tRPC caller → session, user, ledger, settings)', api)}

get_common_info reaches ${toHealthz.toFixed(2)}× /healthz of the same process and ${(ratio * 100).toFixed(0)}% of the bare route's throughput (goal ≥ 0.5× /healthz, p99 < 20 ms): ${verdict} the goal. In server CPU per request it costs ${(api.cpuUsPerRequest / healthz.cpuUsPerRequest).toFixed(1)}× /healthz (${api.cpuUsPerRequest.toFixed(0)} µs against ${healthz.cpuUsPerRequest.toFixed(0)} µs), the figure a machine shared with other work moves least.`,
    );
    console.log(
      `bare ${bareResult.rps.toFixed(0)} req/s p99 ${bareResult.p99.toFixed(2)} ms; get_common_info ${api.rps.toFixed(0)} req/s p99 ${api.p99.toFixed(2)} ms (${toHealthz.toFixed(2)}× healthz ${healthz.rps.toFixed(0)} req/s); CPU ${api.cpuUsPerRequest.toFixed(0)} µs/req vs healthz ${healthz.cpuUsPerRequest.toFixed(0)} µs/req`,
    );
    return { healthz, api, toHealthz };
  } finally {
    await bare.close();
    restoreRates();
    await stopTestServer(s);
  }
}
