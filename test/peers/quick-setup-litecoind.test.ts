import fs from 'node:fs';
import path from 'node:path';
import { bls12_381 } from '@noble/curves/bls12-381';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { operatorKeyFor } from '../../src/server/nodes/operator-key';
import { makeCoinReady, writeFixtureFacts } from '../support/coin-ready';
import { DAEMON_BUDGET_MS, haveBinary, pidsMatching, rpc, waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Quick setup on a real daemon: litecoind stands in for a smartnode daemon. Its profile
// takes the operator key under an option litecoind has (`uacomment`: the key shows in
// the restarted daemon's subversion); a second profile names `onlynet`, which litecoind
// refuses for such a value, so the restart fails and everything must be put back.
const dataDir = tempDataDir('nodekeep-quick-');
const profilesFile = path.join(dataDir, 'daemons.json');
const shippedProfiles = JSON.parse(fs.readFileSync('catalog/daemons.json', 'utf8'));
const ltc = shippedProfiles.profiles['litecoind-regtest'];
shippedProfiles.profiles['litecoind-quick'] = { ...ltc, operator_key_option: 'uacomment' };
shippedProfiles.profiles['litecoind-refuses'] = { ...ltc, operator_key_option: 'onlynet' };
fs.writeFileSync(profilesFile, JSON.stringify(shippedProfiles));
const catalogFile = path.join(dataDir, 'coins.json');
const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
const rtm = shipped.coins.find((c: { id: string }) => c.id === 'rtm');
fs.writeFileSync(
  catalogFile,
  JSON.stringify({
    ...shipped,
    coins: [
      { ...rtm, id: 'rtmq', label: 'Smartnode (litecoind)', daemon: 'litecoind-quick' },
      { ...rtm, id: 'rtmx', label: 'Smartnode (refusing litecoind)', daemon: 'litecoind-refuses' },
    ],
  }),
);
// The simulator is off here (a real daemon): the two test profiles count as verified (a
// fixture), and their coins are offered once `coins check` passed for them.
const factsDir = writeFixtureFacts(path.join(dataDir, 'facts'), ['litecoind-quick', 'litecoind-refuses']);
const env = {
  MONITOR_NODE_SECONDS: '0.5',
  MONITOR_NETWORK_SECONDS: '0.5',
  DAEMON_PROFILES_FILE: profilesFile,
  DAEMON_FACTS_DIR: factsDir,
};

let s: TestServer;
let owner: FreshUser;
const post = async (p: string, body: unknown) => {
  const r = await fetch(s.url + p, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
};
const row = (mn: string) =>
  s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();
const confOf = (mn: string) => path.join(dataDir, 'fleet', 'data', mn, 'litecoin.conf');
const NetInfo = v.looseObject({ subversion: v.string() });
/** The node's daemon as the fleet reaches it now (the port and credentials of its row). */
const target = (mn: string) => async () => {
  const r = await row(mn);
  return {
    endpoint: await s.fleet.engines.local.rpcEndpoint(mn),
    auth: { user: r.rpc_user!, password: r.rpc_password! },
  };
};

/** A smartnode waiting for its start, on a real litecoind that answers. */
async function startRequiredNode(coinId: string): Promise<string> {
  const n = await requestNode(
    s.deps.db,
    { profiles: s.deps.fleet.profiles, facts: s.deps.fleet.facts, log: s.deps.log, simulator: false },
    { userId: owner.id, coinId, plan: 'dedicated' },
    { entry: 'bb'.repeat(32), output_text: `x ${'bb'.repeat(32)} 0 not_active` },
  );
  await s.deps.fleet.reconcile();
  await waitFor(async () => (await row(n.mn_id)).provisioned_at, DAEMON_BUDGET_MS, 'provisioned');
  await rpc(target(n.mn_id), 'getnetworkinfo', [], NetInfo);
  return n.mn_id;
}

const newKey = () => Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');

beforeAll(async () => {
  const lines: string[] = [];
  expect(
    await runCli(['catalog', 'import', catalogFile], { DATA_DIR: dataDir, ...env }, { out: (l) => lines.push(l) }),
    lines.join('\n'),
  ).toBe(0);
  s = await startTestServer(env, { dataDir });
  owner = await freshUser(s.deps, { prefix: 'quick' });
  if (haveBinary('/usr/lib/litecoin/litecoind')) for (const coin of ['rtmq', 'rtmx']) await makeCoinReady(s, coin);
}, 120_000);
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
}, 60_000);

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))('quick setup on a real daemon', () => {
  it('rewrites the config with the key, restarts the daemon with it, and only then starts the node', async () => {
    const mn = await startRequiredNode('rtmq');
    const before = fs.readFileSync(confOf(mn), 'utf8');
    expect(before).not.toMatch(/uacomment/);
    const pidBefore = s.fleet.engines.local.pidOf(mn);
    const key = newKey();

    const ok = await post('/api/quick_setup', {
      mn,
      secret: `server=1\nsmartnodeblsprivkey=${key}\nexternalip=1.2.3.4`,
    });
    expect(ok).toEqual({
      status: 200,
      body: { success: true, message: expect.stringMatching(/successfully submitted/) },
    });
    // The key is applied by a queued job: the node is started once its daemon took it.
    await waitFor(async () => (await row(mn)).started_at, DAEMON_BUDGET_MS, 'started by the quick setup job');

    // The config file: the key before the network section, owner-only, the rest as before.
    const conf = fs.readFileSync(confOf(mn), 'utf8');
    expect(conf).toBe(before.replace('\n[regtest]\n', `\nuacomment=${key}\n[regtest]\n`));
    expect(fs.statSync(confOf(mn)).mode & 0o777).toBe(0o600);
    // A new process, already answering when the start completed, carrying the key.
    const pid = s.fleet.engines.local.pidOf(mn);
    expect(pid).not.toBe(pidBefore);
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain(key);
    const info = await rpc(target(mn), 'getnetworkinfo', [], NetInfo, { budgetMs: 3_000 });
    expect(info.subversion).toMatch(new RegExp(`^/LitecoinCore:0\\.21[^/]*\\(${key}\\)/$`));
    // Started, and the key sealed: a restart or a re-provision writes it again.
    const r = await row(mn);
    expect(r.started_at).not.toBeNull();
    expect(r.output_text).toBe(`x ${'bb'.repeat(32)} 0 active`);
    expect(r.secrets).not.toContain(key);
    expect(operatorKeyFor(s.deps.secrets, r, 'smartnode')).toBe(key);
    expect((await post('/api/quick_setup', { mn, secret: newKey() })).body.message).toBe(
      'This node has already been started.',
    );
  }, 120_000);

  it('puts the old config and daemon back when the daemon does not come back with the key', async () => {
    const mn = await startRequiredNode('rtmx');
    const before = fs.readFileSync(confOf(mn), 'utf8');
    const { secrets } = await row(mn);
    const res = await post('/api/quick_setup', { mn, secret: newKey() });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    // The job gives the start back and tells the owner why.
    const told = await waitFor(
      async () =>
        s.deps.db
          .selectFrom('notifications')
          .select('message')
          .where('kind', '=', 'quick_setup_failed')
          .where('message', 'like', `%${mn}%`)
          .executeTakeFirst(),
      DAEMON_BUDGET_MS * 2,
      'quick_setup_failed',
    );
    expect(told.message).toContain(
      'Your node did not come back with the new key, so it keeps running as before. Please try again in a few minutes; if it fails again, contact support.',
    );
    await waitFor(
      async () =>
        (await s.deps.db.selectFrom('nodes').select('start_claim_at').where('mn_id', '=', mn).executeTakeFirstOrThrow())
          .start_claim_at === null,
      DAEMON_BUDGET_MS,
      'the start claim given back',
    );
    // Nothing changed: config, sealed secrets, start marker; the daemon runs as before.
    expect(fs.readFileSync(confOf(mn), 'utf8')).toBe(before);
    expect(fs.statSync(confOf(mn)).mode & 0o777).toBe(0o600);
    const r = await row(mn);
    expect(r).toMatchObject({ secrets, started_at: null, output_text: `x ${'bb'.repeat(32)} 0 not_active` });
    const info = await rpc(target(mn), 'getnetworkinfo', [], NetInfo);
    expect(info.subversion).toMatch(/^\/LitecoinCore:0\.21[^/(]*\/$/);
  }, 120_000);
});
