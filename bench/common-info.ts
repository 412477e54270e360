import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { startTestServer, stopTestServer } from '../test/support/server';
import { load } from './http';
import { machine, writeSection } from './report';

/**
 * GET /api/get_common_info (token lookup, user, ledger balance, maintenance flag, JSON)
 * against a bare Hono route that returns a constant JSON body, in the same process and
 * run, 50 requests in flight.
 */
export async function benchCommonInfo() {
  const s = await startTestServer({ LOG_LEVEL: 'warn' });
  const bare = new Hono().get('/bare', (c) => c.json({ success: true, info: { username: 'bench' } }));
  const bareServer = serve({ fetch: bare.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((r) => bareServer.once('listening', r));
  const barePort = (bareServer.address() as AddressInfo).port;
  try {
    const post = (path: string, body: unknown) => fetch(s.url + path, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
    await post('/public_api/register', { username: 'bench', email: 'bench@example.test', password: 'bench-pass-1' });
    const { auth_token } = await post('/public_api/login', { username: 'bench', password: 'bench-pass-1' });
    const headers = { authorization: `Bearer ${auth_token}` };

    const bareResult = await load(`http://127.0.0.1:${barePort}/bare`);
    const api = await load(`${s.url}/api/get_common_info`, { headers });
    if (api.errors || bareResult.errors) throw new Error(`errors during the run: api ${api.errors}, bare ${bareResult.errors}`);
    const ratio = api.rps / bareResult.rps;
    const row = (name: string, r: typeof api) => `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.count} |`;
    writeSection(
      'get_common_info',
      `## GET /api/get_common_info vs a bare Hono route

${new Date().toISOString().slice(0, 10)} on ${machine()}.
50 concurrent keep-alive connections from a worker thread, 1 s warm-up, 5 s measured; request logging at warn (on, as in production, but below the level that prints).

| route | requests/s | p50 ms | p99 ms | requests |
|---|---|---|---|---|
${row('bare Hono route (constant JSON)', bareResult)}
${row('GET /api/get_common_info (REST adapter → tRPC caller → session, user, ledger, settings)', api)}

get_common_info reaches ${(ratio * 100).toFixed(0)}% of the bare route's throughput.`,
    );
    console.log(`bare ${bareResult.rps.toFixed(0)} req/s p99 ${bareResult.p99.toFixed(2)} ms; get_common_info ${api.rps.toFixed(0)} req/s p99 ${api.p99.toFixed(2)} ms (${(ratio * 100).toFixed(0)}%)`);
  } finally {
    bareServer.close();
    await stopTestServer(s);
  }
}
