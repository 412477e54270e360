import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../src/server/cli/main';
import { haveBinary, waitFor } from '../test/support/daemons';
import { liveClient } from '../test/support/live';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../test/support/server';
import { fundedUser } from '../test/support/users';
import { machine, writeSection } from './report';

/**
 * Deploy request → server_created (live event) → first status with wallet info
 * (get_masternode), per engine, through the running platform as a customer's script
 * sees it: REST deploy_server with an API session, the websocket for the event.
 * Goals (issue 8): simulator under 1 s to server_created and under 2 s to the first
 * status; litecoind under 3 s.
 */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function one(s: TestServer, token: string, live: ReturnType<typeof liveClient>, body: Record<string, unknown>) {
  const t0 = performance.now();
  const res = await fetch(`${s.url}/api/deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!answer.success) throw new Error(`deploy refused: ${answer.message}`);
  const id: string = answer.server_id;
  const tAnswer = performance.now() - t0;
  await waitFor(
    async () => live.received.some((e) => e.type === 'server_created' && e.payload.server_id === id),
    30_000,
    `${id} server_created`,
  );
  const tCreated = performance.now() - t0;
  await waitFor(
    async () => {
      const b = await fetch(`${s.url}/api/get_masternode?masternode=${id}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json());
      return b.data?.wallet_info !== null && b.data?.status !== 'deploying' && b.data?.status !== 'unknown';
    },
    30_000,
    `${id} first status`,
  );
  const tStatus = performance.now() - t0;
  await fetch(`${s.url}/api/delete_masternode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mn: id, reason: 'I will deploy another node' }),
  });
  return { tAnswer, tCreated, tStatus };
}

export async function benchDeploy() {
  const dataDir = tempDataDir('nodekeep-bench-deploy-');
  const catalogFile = path.join(dataDir, 'coins.json');
  const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
  const pivx = shipped.coins.find((c: any) => c.id === 'pivx');
  fs.writeFileSync(
    catalogFile,
    JSON.stringify({
      ...shipped,
      coins: [
        ...shipped.coins,
        {
          ...pivx,
          id: 'ltc',
          label: 'Litecoin (regtest)',
          ticker: 'LTC',
          daemon: 'litecoind-regtest',
          market: { ...pivx.market, coingecko_id: 'litecoin' },
        },
      ],
    }),
  );
  const env = { FLEET_SIMULATOR: 'true' };
  await runCli(['catalog', 'import', catalogFile], { DATA_DIR: dataDir, ...env }, { out: () => {} });
  const s = await startTestServer(env, { dataDir });
  const rows: string[] = [];
  try {
    const user = await fundedUser(s.deps, { prefix: 'bench' }); // a deploy pays its Initial Charge
    const live = liveClient(s.url, user.token);
    const engines: [string, Record<string, unknown>][] = [
      ['simulator (PIVX)', { currency: 'pivx', txid: 'a'.repeat(64) }],
    ];
    if (haveBinary('/usr/lib/litecoin/litecoind'))
      engines.push(['litecoind regtest (local process)', { currency: 'ltc', txid: 'b'.repeat(64) }]);
    for (const [name, body] of engines) {
      console.log(`deploy bench: ${name}`);
      const runs = [];
      for (let i = 0; i < 5; i++)
        runs.push(await one(s, user.token, live, { ...body, txid: `${i}`.repeat(64).slice(0, 64) }));
      rows.push(
        `| ${name} | ${median(runs.map((r) => r.tAnswer)).toFixed(0)} | ${median(runs.map((r) => r.tCreated)).toFixed(0)} | ${median(runs.map((r) => r.tStatus)).toFixed(0)} | ${Math.max(...runs.map((r) => r.tStatus)).toFixed(0)} |`,
      );
    }
    await live.close();
  } finally {
    await stopTestServer(s);
  }
  writeSection(
    'deploy',
    `## Deploy to first status (issue 8)

${new Date().toISOString().slice(0, 10)}, ${machine()}. Through the running platform: REST \`deploy_server\`, the \`server_created\` live event over the websocket, then \`get_masternode\` until it shows a status and wallet info. Median of 5 deploys per engine, milliseconds from sending the request. Goals: simulator under 1 s to server_created and under 2 s to the first status; litecoind under 3 s.

| engine | deploy answered | server_created | first status with wallet | slowest first status |
|---|---|---|---|---|
${rows.join('\n')}
`,
  );
}
