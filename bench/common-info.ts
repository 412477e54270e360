import { startTestServer, stopTestServer } from '../test/support/server';
import { bareRoute, load, loadGenerator, row, TABLE_HEAD } from './serve';
import { machine, writeSection } from './report';

/**
 * GET /api/get_common_info (token lookup, user, ledger balance, maintenance flag, JSON)
 * against a bare Hono route that returns a constant JSON body, in the same process and
 * run, 50 requests in flight.
 */
export async function benchCommonInfo() {
  const s = await startTestServer({ LOG_LEVEL: 'warn' });
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
    const api = await load(`${s.url}/api/get_common_info`, { headers });
    if (api.errors || bareResult.errors)
      throw new Error(`errors during the run: api ${api.errors}, bare ${bareResult.errors}`);
    const ratio = api.rps / bareResult.rps;
    writeSection(
      'get_common_info',
      `## GET /api/get_common_info vs a bare Hono route

${new Date().toISOString().slice(0, 10)} on ${machine()}.
50 concurrent keep-alive connections from ${loadGenerator}, 1 s warm-up, 5 s measured; request logging at warn (on, as in production, but below the level that prints).

${TABLE_HEAD}
${row('bare Hono route (constant JSON)', bareResult)}
${row('GET /api/get_common_info (REST adapter → tRPC caller → session, user, ledger, settings)', api)}

get_common_info reaches ${(ratio * 100).toFixed(0)}% of the bare route's throughput.`,
    );
    console.log(
      `bare ${bareResult.rps.toFixed(0)} req/s p99 ${bareResult.p99.toFixed(2)} ms; get_common_info ${api.rps.toFixed(0)} req/s p99 ${api.p99.toFixed(2)} ms (${(ratio * 100).toFixed(0)}%)`,
    );
  } finally {
    await bare.close();
    await stopTestServer(s);
  }
}
