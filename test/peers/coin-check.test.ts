import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { requestCoinCheck } from '../../src/server/nodes/coin-checks';
import { cliRun } from '../support/cli';
import { runCoinCheck, writeFixtureFacts, writeLitecoindCatalog } from '../support/coin-ready';
import { haveBinary, pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { waitFor } from '../support/wait';

// `coins check` on this machine's local engine with Debian's litecoind, the simulator off (production):
// a coin is "Coming soon" until its profile is verified and its check passed; each failing
// step says what is missing.
const dataDir = tempDataDir('nodekeep-coincheck-');
// A P2P port someone else holds on this machine, for the whole file.
const held = net.createServer();
await new Promise<void>((r) => held.listen(0, () => r()));
const heldPort = (held.address() as net.AddressInfo).port;
const LITECOIND = '/usr/lib/litecoin/litecoind';
const { profilesFile, catalogFile } = writeLitecoindCatalog(dataDir, {
  profiles: {
    'ltc-good': {},
    'ltc-oldver': { version: '9.9.9' },
    'ltc-gone': { program: path.join(dataDir, 'no-such-litecoind') },
    'ltc-unverified': {},
    'ltc-p2p': { p2p_port: heldPort },
    // A daemon binary of its own, replaced during the test (an upgrade on the host).
    'ltc-copy': { program: path.join(dataDir, 'bin', 'litecoind') },
  },
  base: 'rtm',
  coins: [
    { id: 'ckgood', daemon: 'ltc-good' },
    { id: 'ckold', daemon: 'ltc-oldver' },
    { id: 'ckgone', daemon: 'ltc-gone' },
    { id: 'ckunver', daemon: 'ltc-unverified' },
    { id: 'ckp2p', daemon: 'ltc-p2p' },
    { id: 'ckcopy', daemon: 'ltc-copy' },
  ],
  // A coin of the demo catalog on its family's simulator.
  keep: ['dash'],
});
fs.mkdirSync(path.join(dataDir, 'bin'));
fs.copyFileSync(LITECOIND, path.join(dataDir, 'bin', 'litecoind'));
fs.chmodSync(path.join(dataDir, 'bin', 'litecoind'), 0o755);
const factsDir = writeFixtureFacts(path.join(dataDir, 'facts'), [
  'ltc-good',
  'ltc-oldver',
  'ltc-gone',
  'ltc-p2p',
  'ltc-copy',
]);
const env = {
  FLEET_SIMULATOR: 'false',
  FLEET_LOCAL_IPV4: '203.0.113.9',
  DAEMON_PROFILES_FILE: profilesFile,
  DAEMON_FACTS_DIR: factsDir,
  // The host check (and the recheck of changed programs) runs often here.
  HOST_CHECK_SECONDS: '0.5',
};

let s: TestServer;
let owner: FreshUser;
const get = async (p: string) => {
  const r = await fetch(s.url + p, { headers: { authorization: `Bearer ${owner.token}` } });
  return (await r.json()) as any;
};
/** The real command line; what it says on stdout and stderr, together. */
const cli = async (...args: string[]) => {
  const r = await cliRun(args, { DATA_DIR: dataDir, ...env });
  return { code: r.code, text: [r.out, r.err.trimEnd()].filter(Boolean).join('\n') };
};

beforeAll(async () => {
  expect((await cli('catalog', 'import', catalogFile)).code).toBe(0);
  s = await startTestServer(env, { dataDir });
  owner = await freshUser(s.deps, { prefix: 'ckowner' });
}, 60_000);
afterAll(async () => {
  held.close();
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
}, 60_000);

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))('coins check and what customers are offered', () => {
  it('offers no coin before its check: coming soon everywhere, and a deploy is refused in those words, writing nothing', async () => {
    const info = await get('/api/get_deploy_info?coin=ckgood');
    expect(info.data).toMatchObject({
      coming_soon: true,
      coming_soon_reason:
        'Coin ckgood nodes are coming soon: the servers that run them are being prepared. Please check back later.',
    });
    const coins = await get('/public_api/get_coins');
    expect(coins.data.ckgood.coming_soon).toBe(true);
    // The demo's simulated coin is not offered with the simulator off either.
    expect(coins.data.dash.coming_soon).toBe(true);
    const before = await s.deps.db.selectFrom('node_view').select('id').execute();
    await expect(
      requestNode(
        s.deps.db,
        { profiles: s.fleet.profiles, facts: s.fleet.facts, log: s.deps.log, simulator: false },
        { userId: owner.id, coinId: 'ckgood', plan: 'dedicated' },
      ),
    ).rejects.toThrow(/^Coin ckgood nodes are coming soon/);
    expect(await s.deps.db.selectFrom('node_view').select('id').execute()).toEqual(before);
    expect(s.logLines.join('\n')).toMatch(/not checked yet: run `npm run nodekeep -- coins check ckgood`/);
  });

  it('`coins check` passes for a verified daemon that answers every call, and the coin is offered', async () => {
    const r = await cli('coins', 'check', 'ckgood');
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(/ok +profile: profile ltc-good verified/);
    expect(r.text).toMatch(/ok +version: \/usr\/lib\/litecoin\/litecoind --version says 0\.21\.2\.1/);
    expect(r.text).toMatch(/ok +calls: \d+ calls: getblockchaininfo answered, getnetworkinfo answered/);
    expect(r.text).toMatch(/ckgood: ready$/);
    // The public list is cached for a second: asked until it shows the change.
    await waitFor(
      async () => (await get('/public_api/get_coins')).data.ckgood.coming_soon === false,
      10_000,
      'offered',
    );
    expect((await get('/api/get_deploy_info?coin=ckgood')).data).toMatchObject({
      coming_soon: false,
      coming_soon_reason: null,
    });
    // The throwaway daemon is gone.
    expect(pidsMatching(path.join(dataDir, 'fleet'))).toEqual([]);
  }, 200_000);

  it('names the missing piece: not verified, program missing, wrong version, P2P port taken', async () => {
    const unverified = await runCoinCheck(s, 'ckunver');
    expect(unverified.reason).toBe(
      'profile ltc-unverified is not verified from its source: catalog/daemon-facts has no file for it',
    );
    const gone = await runCoinCheck(s, 'ckgone');
    expect(gone.reason).toBe(
      `${path.join(dataDir, 'no-such-litecoind')} is not an executable on this machine: install the coin's daemon there`,
    );
    const old = await runCoinCheck(s, 'ckold');
    expect(old.reason).toMatch(
      /^\/usr\/lib\/litecoin\/litecoind --version says "Litecoin Core version v0\.21\.2\.1-\w+", not 9\.9\.9$/,
    );
    const p2p = await runCoinCheck(s, 'ckp2p');
    expect(p2p.state).toBe('failed');
    expect(p2p.reason).toBe(`P2P port ${heldPort} is taken on 203.0.113.9 (host local)`);
    for (const id of ['ckunver', 'ckgone', 'ckold', 'ckp2p'])
      expect((await get(`/api/get_deploy_info?coin=${id}`)).data.coming_soon).toBe(true);
    expect(pidsMatching(path.join(dataDir, 'fleet'))).toEqual([]);
  }, 300_000);

  it('refuses a second check of a coin while one is under way, and an unknown coin or host', async () => {
    expect(await cli('coins', 'check', 'nosuchcoin')).toEqual({ code: 1, text: 'error: Unknown coin "nosuchcoin".' });
    expect(await cli('coins', 'check', 'ckgood', '--host', 'nowhere')).toEqual({
      code: 1,
      text: 'error: No host "nowhere".',
    });
    const before = await s.deps.db.selectFrom('coin_checks').select('id').execute();
    const first = requestCoinCheck(s.deps.db, s.fleet.profiles, 'ckgood', null);
    const second = requestCoinCheck(s.deps.db, s.fleet.profiles, 'ckgood', null);
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a.status).toBe('fulfilled');
    expect(b.status === 'rejected' && b.reason.message).toBe('A check of Coin ckgood is already under way.');
    expect(await s.deps.db.selectFrom('coin_checks').select('id').execute()).toHaveLength(before.length + 1);
  });

  it('checks a coin again when its program changed on the host', async () => {
    const first = await runCoinCheck(s, 'ckcopy');
    expect(first.state, first.reason ?? '').toBe('passed');
    const checks = () =>
      s.deps.db.selectFrom('coin_checks').selectAll().where('coin_id', '=', 'ckcopy').orderBy('id').execute();
    // Replaced by another build of the same daemon (here: the same bytes, written anew).
    const bin = path.join(dataDir, 'bin', 'litecoind');
    fs.copyFileSync(LITECOIND, `${bin}.new`);
    fs.appendFileSync(`${bin}.new`, Buffer.alloc(1));
    fs.chmodSync(`${bin}.new`, 0o755);
    fs.renameSync(`${bin}.new`, bin);
    const again = await waitFor(
      async () => {
        const rows = await checks();
        const last = rows.at(-1)!;
        return rows.length === 2 && (last.state === 'passed' || last.state === 'failed') ? last : null;
      },
      180_000,
      'the check run again',
    );
    expect(again.state, again.reason ?? '').toBe('passed');
    expect(again.program_id).not.toBe(first.program_id);
  }, 300_000);
});
